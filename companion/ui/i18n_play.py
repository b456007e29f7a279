"""Texts of the live base-game panels (player tiles, build buttons, cost card, showing VP cards), in
English and Japanese.

Kept apart from :mod:`.i18n` (the app's shared table, edited for every screen) and merged into it by
:func:`install` when :mod:`.play_panels` is imported, so ``app.tr(key)`` finds them like any other text;
a key the app already has is never overwritten.
"""

from __future__ import annotations

from . import i18n

TEXT: dict[str, dict[str, str]] = {
    # a player's tile: what the table knows of the hand, development cards, knights
    "tile_unseen": {"en": "{n} unseen", "ja": "不明{n}"},
    # a compact tile's awards (one row of tiles over a crowded board; the whole names on a tap)
    "short_longest_road": {"en": "Road", "ja": "交易路"},
    "short_largest_army": {"en": "Army", "ja": "騎士力"},
    # under every player's whole tile, shown over the screen from a tap on a compact tile
    "tiles_close": {"en": "Tap anywhere to close", "ja": "タップで閉じる"},
    "tile_no_cards": {"en": "no cards", "ja": "手札なし"},
    "tile_dev": {"en": "dev cards {n}", "ja": "発展{n}"},
    "tile_knights": {"en": "knights {n}", "ja": "騎士{n}"},
    "tile_vp_cards": {"en": "VP cards {n}", "ja": "勝利点カード{n}"},
    # the build-cost card and why a build button cannot be used now (the rules' refusal codes)
    "cost_card": {"en": "Costs", "ja": "費用"},
    "development": {"en": "dev card", "ja": "発展カード"},
    "why_short_cannot_afford": {"en": "can't pay", "ja": "資源不足"},
    "why_short_no_piece_left": {"en": "none left", "ja": "駒切れ"},
    "why_short_no_legal_spot": {"en": "nowhere to build", "ja": "置ける所なし"},
    "why_short_ship_already_moved": {"en": "moved already", "ja": "移動済み"},
    "why_short_no_movable_ship": {"en": "none movable", "ja": "動かせる船なし"},
    # High Tide: a dike's time (the rules' refusal codes for a dike out of its rounds)
    "why_short_dike_too_early": {"en": "from the dike round", "ja": "堤防ラウンドから"},
    "why_short_dike_spring_tide": {"en": "no more in the spring tide", "ja": "大潮では不可"},
    "why_short_dike_special_build": {"en": "not in special build", "ja": "特別建設では不可"},
    "why_short_no_dike_card": {"en": "no dike card left", "ja": "堤防カードなし"},
    # Seafarers: moving a ship (the Move ship button, then two taps on the board)
    "move_ship": {"en": "Move ship", "ja": "船を移動"},
    "on_a_coast": {"en": "On a coast:", "ja": "海岸には："},
    "moved_ship": {"en": "{name} moved a ship", "ja": "{name}は船を移動した"},
    "gold_choosing": {"en": "{name}: {n} of their choice from the gold field", "ja": "{name}：金鉱から好きな資源{n}枚（選択中）"},
    # Seafarers' 7 or knight: the pirate moves instead of the robber where the player taps the sea
    "p_move_robber_or_pirate": {"en": "{name}: move the robber or the pirate (tap a marked hex: the land for the robber, "
                                      "the sea for the pirate)",
                                "ja": "{name}：盗賊か海賊を移動（印のヘクスをタップ：陸なら盗賊、海なら海賊）"},
    "p_move_pirate": {"en": "{name}: move the pirate (tap a marked sea hex)", "ja": "{name}：海賊を移動（印の海ヘクスをタップ）"},
    # under the prompt while the robber (or pirate) waits for its hex: the board's dots on the ringed hexes
    "victims_legend": {"en": "The dots on a ringed hex: whom a move there robs",
                       "ja": "印のヘクスの点：そこへ動かすと奪える相手"},
    "victims_none": {"en": "Nobody can be robbed this time (no other player beside a hex holds a card)",
                     "ja": "今回は誰からも奪えません（ヘクスに接する他のプレイヤーに手札なし）"},
    # a board too large to tap at its fitted size (Seafarers): twice as large, panned by a drag
    "zoom": {"en": "Zoom", "ja": "拡大"},
    # a build armed (its button down): what the next tap on the board builds
    "p_armed_road": {"en": "{name}: tap a green side for the road", "ja": "{name}：道を置く緑の辺をタップ"},
    "p_armed_ship": {"en": "{name}: tap a green side for the ship", "ja": "{name}：船を置く緑の辺をタップ"},
    "p_armed_settlement": {"en": "{name}: tap a green corner for the settlement",
                           "ja": "{name}：開拓地を置く緑の角をタップ"},
    "p_armed_city": {"en": "{name}: tap a green corner (a settlement) for the city",
                     "ja": "{name}：都市にする緑の角（開拓地）をタップ"},
    # High Tide: Dike down, the hexes a dike may go on ringed (it kept "tap a side or corner to build ..."; s18)
    "p_armed_dike": {"en": "{name}: tap a ringed land hex for the dike", "ja": "{name}：堤防を置く丸印の陸地ヘクスをタップ"},
    "p_move_ship_pick": {"en": "{name}: tap the ship to move (a green side)", "ja": "{name}：動かす船をタップ（緑の辺）"},
    "p_move_ship_to": {"en": "{name}: tap where the ship goes (a green side); tap the ship again to leave it",
                       "ja": "{name}：船の行き先をタップ（緑の辺）。もう一度その船をタップすると動かしません"},
    "why_short_dev_deck_empty": {"en": "deck empty", "ja": "山札なし"},
    "why_short_dev_none_to_play": {"en": "no card", "ja": "カードなし"},
    "why_short_dev_all_new": {"en": "bought this turn", "ja": "今回購入"},
    "why_short_dev_none": {"en": "none held", "ja": "持っていない"},
    "why_short_dev_bought_this_turn": {"en": "bought this turn", "ja": "今回購入"},
    "why_short_dev_already_played": {"en": "one played", "ja": "使用済み"},
    # showing victory-point cards (reveal_development)
    "reveal_vp": {"en": "Show VP cards", "ja": "勝利点を公開"},
    "reveal_title": {"en": "{name}: how many victory-point cards to show? (up to {n})",
                     "ja": "{name}：公開する勝利点カードの枚数（最大{n}枚）"},
    "reveal_none": {"en": "{name} holds no card that may be a victory-point card",
                    "ja": "{name}は勝利点カードでありうるカードを持っていません"},
    "reveal_ok_1": {"en": "Show 1 VP card", "ja": "勝利点カードを1枚公開"},
    "reveal_ok": {"en": "Show {n} VP cards", "ja": "勝利点カードを{n}枚公開"},
    # confirmations of what changed hands (the caption line under the board says them too)
    "bought_dev": {"en": "{name} bought a development card", "ja": "{name}は発展カードを買った"},
    "traded_bank": {"en": "{name} traded {give} to the bank for {get}", "ja": "{name}は銀行と交易：{give}を出して{get}"},
    "traded_with": {"en": "{name} traded {give} to {other} for {get}",
                    "ja": "{name}は{other}と交易：{give}を出して{get}"},
    "revealed_vp_1": {"en": "{name} shows 1 victory-point card", "ja": "{name}は勝利点カードを1枚公開"},
    "revealed_vp": {"en": "{name} shows {n} victory-point cards", "ja": "{name}は勝利点カードを{n}枚公開"},
    # the resume list: what a table remembers of a game
    "resume_line": {"en": "#{id} {game} — {turn} — {players} — {when}", "ja": "#{id} {game} — {turn} — {players} — {when}"},
    "resume_turn": {"en": "turn {n}", "ja": "{n}手番目"},
    "resume_setup": {"en": "set-up", "ja": "初期配置"},
    # the dice box's status line (its own detail is English: docs/dice-box-protocol.md)
    "why_box_connected": {"en": "{model} {firmware} on {port}", "ja": "{port} の {model} {firmware}"},
    "why_box_handling": {"en": "handling", "ja": "準備中"},
    "why_box_rolling": {"en": "rolling", "ja": "振っています"},
    "why_box_idle": {"en": "idle", "ja": "待機中"},
    "why_box_settled": {"en": "settled", "ja": "止まりました"},
    "why_box_unreachable": {"en": "{port} not found: is the cable in? Trying again; tap the dice meanwhile",
                            "ja": "{port} が見つかりません。ケーブルを確かめてください。再接続を試みています。その間はダイスをタップ"},
    # the box's port there but not opened: the tablet's question unanswered, no access (Linux), another program on it
    # (said inside the line's parentheses: none of their own)
    "why_box_permission_asked": {"en": "answer the tablet's question: may the app use the USB device? Tap the dice "
                                       "meanwhile",
                                 "ja": "タブレットの質問に答えて、USB機器の使用を許可してください。その間はダイスをタップ"},
    "why_box_no_access": {"en": "no permission to open {port}: on Linux, add yourself to the dialout group and log "
                                "in again; tap the dice meanwhile",
                          "ja": "{port} を開く権限がありません。Linuxではユーザーを dialout グループに追加して再ログインし"
                                "てください。その間はダイスをタップ"},
    "why_box_busy": {"en": "{port} is in use by another program: close it. Trying again; tap the dice meanwhile",
                     "ja": "{port} は別のプログラムが使用中です。閉じてください。再接続を試みています。その間はダイスをタップ"},
    "why_box_crooked": {"en": "crooked dice", "ja": "ダイスが傾いています"},
    # the board generator
    "same_board": {"en": "Seed {seed} gives the same board as before.", "ja": "シード{seed}は前と同じ盤面です。"},
}


def install() -> None:
    """Add these texts to the app's table (the app's own keys win)."""
    for key, entry in TEXT.items():
        i18n.TEXT.setdefault(key, entry)
