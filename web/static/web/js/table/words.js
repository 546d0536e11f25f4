// The table's own words, over the shared ones (i18n.js): a part of the table that imports `t`
// from here finds both.

import { dictionary } from "../i18n.js";

export const words = dictionary({
  en: {
    "table.aborted": "This match was stopped: {reason}",
    "table.aborted_plain": "This match was stopped.",
    "autoplay.note.paused": "The match waits for you.",
    "trick.taken": "Last trick, taken by {name}",
    "trick.taken.you": "Last trick, taken by you",
    "trick.round_last": "Round {round}'s last trick",
    "side.rules": "Rules",
    "side.scores": "Scores",
    "side.log": "Log",
    "options.title": "This table",
    "options.clock": "Turn clock",
    "options.clock.n": "{n} s",
    "options.clock.none": "none",
    "options.pace": "Bots' pace",
    "options.pace.n": "{n} s between moves",
    "options.pace.none": "at once",
    "alerts.title": "On your turn",
    "alerts.sound": "Sound",
    "alerts.notify": "Notify me",
    "alerts.notify.on": "Notifications on",
    "alerts.notify.denied": "Notifications are blocked in this browser.",
    "turn.title": "▶ Your turn",
    "turn.body": "{game}, match #{id}: your turn.",
  },
  zh: {
    "table.aborted": "牌局已中止：{reason}",
    "table.aborted_plain": "牌局已中止。",
    "autoplay.note.paused": "牌局在等你回来。",
    "trick.taken": "上一轮：{name}赢",
    "trick.round_last": "第{round}局最后一轮",
    "side.rules": "规则",
    "side.scores": "积分",
    "side.log": "记录",
    "options.title": "本桌规则",
    "options.clock": "每步限时",
    "options.clock.n": "{n}秒",
    "options.clock.none": "不限时",
    "options.pace": "机器人出牌",
    "options.pace.n": "每步间隔{n}秒",
    "options.pace.none": "立即",
    "alerts.title": "轮到你时",
    "alerts.sound": "声音提醒",
    "alerts.notify": "通知我",
    "alerts.notify.on": "已开启通知",
    "alerts.notify.denied": "这个浏览器禁止了通知。",
    "turn.title": "▶ 轮到你了",
    "turn.body": "{game}，牌局 #{id}：轮到你了。",
  },
});

export const { t, has, count } = words;
