"""Table talk (快捷语): a fixed set of quick phrases and emoji reactions, in English and Chinese.
No free text, so nothing to moderate; a phrase goes over the match's stream and is never stored
(games.services.talk)."""

PHRASES = {
    "hello": {"en": "Hello!", "zh": "大家好！"},
    "good_luck": {"en": "Good luck!", "zh": "祝大家好运！"},
    "nice_play": {"en": "Nice play!", "zh": "打得漂亮！"},
    "hurry_up": {"en": "Your turn, please!", "zh": "快点吧，等得花都谢了！"},
    "thinking": {"en": "Let me think…", "zh": "让我想想…"},
    "oops": {"en": "Oops!", "zh": "哎呀！"},
    "sorry": {"en": "Sorry!", "zh": "不好意思！"},
    "thanks": {"en": "Thanks!", "zh": "谢谢！"},
    "well_played": {"en": "Well played, everyone.", "zh": "大家打得不错。"},
    "one_more": {"en": "One more?", "zh": "再来一局？"},
    "bye": {"en": "Bye!", "zh": "再见！"},
}
EMOJI = {
    "thumbs_up": "👍", "clap": "👏", "laugh": "😂", "wow": "😮", "cry": "😭", "angry": "😠",
    "flower": "🌹", "bomb": "💣",
}
KEYS = (*PHRASES, *EMOJI)


def catalogue() -> list[dict]:
    """Every phrase and emoji as clients list them: its key, its kind and its text."""
    return ([{"key": key, "kind": "phrase", "text": dict(text)} for key, text in PHRASES.items()]
            + [{"key": key, "kind": "emoji", "text": {"en": sign, "zh": sign}}
               for key, sign in EMOJI.items()])
