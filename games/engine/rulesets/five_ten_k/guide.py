"""How to play 510k, for people (served by GET /rules/ as `how_to_play`): the rules of
docs/rules/510k.md in a few paragraphs, and the Chinese words an English reader meets at the
table. The format is the one RulesetInfo.how_to_play describes."""

HOW_TO_PLAY = {
    "en": """\
## Aim
Two sides race to play out their cards and to win tricks that hold points: each 5 is worth 5, \
each 10 and K 10 (200 in the pack). The match plays a set number of rounds; scores add up.

## Deal and sides
Two packs without 3s, 4s or jokers: 88 cards, 22 each. One player cuts; the card at the cut is \
turned face up (明牌) and its holder speaks first.
- Four players: in turn from the 明牌's holder, each may go solo (包庄), alone against the three \
others for a double stake. If nobody does, the holder of the 明牌's other copy is the holder's \
partner, moving to sit opposite if needed.
- Two players: the 明牌's holder leads, one against one.

## Play
The leader plays any combination; each next player plays the same kind higher, or passes (a \
pass is not final). When every other player with cards passed in a row, the last player takes \
the trick and its points, and leads. 2 is the highest rank.
- Single, pair; three of a kind with up to two extra cards (带牌).
- Straight: 5 or more ranks in a row, 5 to A. Pairs in a row: 2 or more.
- Plane: 2 or more triples in a row, up to two extras each.
- Bomb: 4 to 8 cards of a rank. It beats anything but a bigger bomb (or the same size, higher).

## Scoring
The first out (上游) brings their side 40 more points, and the side still holding cards at the \
end loses 40 (20 each with two players). The side with more points wins the stake from the \
other: each loser pays one winner the base score (进出分); a solo player (包庄) doubles the \
stake and settles with each of the three. If the losers took 40 points or fewer (20 with two \
players) the stake doubles (半干, half-dry); if they took none it doubles again (全干, full-dry), \
as far as the match's options allow. Bombs of 5 or more of a rank (4 or more 2s) earn 喜分 from \
every other player, played or still held.

## Glossary
- 明牌 (míng pái): the card turned face up at the cut; its holder speaks first.
- 包庄 (bāo zhuāng): going solo, one against three, for a double stake.
- 进出分 (jìn chū fēn): the stake the losing side pays the winners at the end of a round.
- 喜分 (xǐ fēn): bonus points for a big bomb, paid by every other player.
- 半干 / 全干 (bàn gān / quán gān): half-dry / full-dry: the losers took 40 points or fewer / \
none, and the stake doubles / doubles twice.
- 上游 (shàng yóu): the first player out.
- 带牌 (dài pái): the extra cards a triple or a plane carries.""",
    "zh": """\
## 目标
两方比谁先出完牌，并赢下带分的牌：5 算 5 分，10 和 K 各算 10 分（整副共 200 分）。\
一场打若干局，积分累计。

## 发牌和分边
两副牌去掉 3、4 和大小王，共 88 张，每人 22 张。一人切牌，切到的牌翻开（明牌），拿到它的人先说话。
- 四人：从明牌的主人起依次表态，可以包庄，一个人打三家，注翻倍。没人包庄时，另一张同样的明牌的主人\
和明牌主人一伙，必要时换到对面坐。
- 两人：明牌的主人先出，一对一。

## 出牌
先出的人出任意牌型，下家出同类更大的牌，或者不要（不要以后还能再出）。其他有牌的人都连续不要时，\
最后出牌的人赢下这一轮和其中的分，再先出。2 最大。
- 单张、对子；三张可以带最多两张（带牌）。
- 顺子：5 个或以上连续的点数，5 到 A。连对：2 对或以上。
- 飞机：2 个或以上连续的三张，每个三张可带最多两张。
- 炸弹：同点数 4 到 8 张，压任何非炸弹；炸弹之间先比张数，再比点数。

## 计分
上游所在的一方加 40 分，最后还有牌的一方减 40 分（两人时各 20 分）。分多的一方赢：输方每人付给\
赢方一人底分（进出分）；包庄的人注翻倍，和三家分别结算。输方得分不超过 40（两人时 20）为半干，\
注再翻倍；一分没得为全干，再翻倍（以牌局选项为准）。同点数 5 张或以上（2 为 4 张或以上）的炸弹\
算喜分，其他每人都要付，打出或留在手里都算。""",
}
