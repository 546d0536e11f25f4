"""How to play gandengyan, for people (served by GET /rules/ as `how_to_play`): the rules of
docs/rules/gandengyan.md in a few paragraphs. The format is the one RulesetInfo.how_to_play
describes."""

HOW_TO_PLAY = {
    "en": """\
## Aim
Be the first to play out your hand. The others pay for the cards they still hold; a player \
whose score falls to 0 or below is out. The match ends when three players or fewer are left.

## Deal
One pack with its two jokers (two packs with 2 decks). Everyone gets 5 cards and the leader 6; \
the rest is the pile. In the first round a die picks the leader; later, the last round's winner \
leads.

## Play
The leader plays any combination; each next player beats it or passes (a pass is not final). \
When the play comes back to its player, they take the trick, draw a card from the pile and lead. \
Jokers stand for any card.
- Single and pair: beaten by the same kind exactly one rank higher (a 6 on a 5), or by a 2 \
(never a 2 on a 2).
- Straight: 3 or more ranks in a row, 3 to A. Pairs in a row: 2 or more. Beaten by the same \
length starting one rank higher.
- Bomb: 3 or more cards of a rank. It beats anything but a bigger bomb (or the same size, \
higher).

## Scoring
When a player plays out, every other player pays them one point per card left, twice as much \
for a player who played no card or holds 5 or more, and the whole doubles for each bomb played \
in the round (twice for a bomb of four, three times for five…). A player whose hand holds only \
jokers drops out of the round and pays nothing.

## Glossary
- 干瞪眼 (gān dèng yǎn): "staring helplessly": what you do when you cannot beat the play.""",
    "zh": """\
## 目标
先出完手里的牌。其他人按手里剩的牌付分；积分降到 0 或以下就出局。只剩三人或更少时牌局结束。

## 发牌
一副牌带大小王（两副牌时 108 张）。每人 5 张，先出的人 6 张，其余是牌堆。第一局掷骰子决定谁先出，\
之后由上一局的赢家先出。

## 出牌
先出的人出任意牌型，下家要么压过，要么不要（不要以后还能再出）。轮回到出牌的人时，他赢下这一轮，\
从牌堆摸一张再先出。王可以当任何牌。
- 单张和对子：只能用大一点的同类牌压（5 上出 6），或者用 2 压（2 不能压 2）。
- 顺子：3 个或以上连续的点数，3 到 A。连对：2 对或以上。只能用同样长度、起点大一点的压。
- 炸弹：同点数 3 张或以上，压任何非炸弹；炸弹之间先比张数，再比点数。

## 计分
有人出完时，其他每人按手里剩的牌每张付 1 分；一张没出过或剩 5 张以上的人付双倍；本局每出一个炸弹，\
全部再翻倍（四张的炸弹翻两次，五张的翻三次……）。手里只剩王的人本局弃权，不付分。""",
}
