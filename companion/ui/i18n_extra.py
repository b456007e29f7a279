"""Texts of the Starfarers and card-game screens, in English and Japanese.

Kept apart from :mod:`.i18n` (whose table belongs to the app's own screens) and merged into it by
:func:`install`, so ``app.tr(key)`` finds them like any other text; a key the app already has is
never overwritten.  Names follow the seeds (``../shared/seeds/003`` and ``001``): Starfarers'
resources are ore, fuel, carbon, food and trade goods; the card game uses the base game's five.
"""

from __future__ import annotations

from ..own_words import own_word
from . import i18n

TEXT: dict[str, dict[str, str]] = {
    # the two games in the new-game and start screens
    "g_starfarers": {"en": "Starfarers", "ja": "宇宙開拓者"},
    "g_card-game": {"en": "Card game", "ja": "カードゲーム"},
    # the new-game screen, in the board's place, for the games without a hex board
    "about_starfarers": {
        "en": "Starfarers: the app keeps each roll's production and supply draws, the 7, the builds and the VP. The "
              "ships fly on the real board: after the mothership is shaken, tap what they did there (a colony "
              "founded, a trade station, a pirate base defeated, an ice planet terraformed).",
        "ja": "宇宙開拓者：アプリはダイスごとの産出と補充の山からの引き、7、建設、勝利点を記録します。宇宙船は実際の"
              "ボードで飛ばします。母船を振った後、船がしたこと（コロニー設置、交易ステーション、海賊基地の撃破、"
              "氷の惑星の地球化）をタップします。"},
    "about_card-game": {
        "en": "Card game: the resource cards stay in your hands, unseen. The app keeps the roads, knights, "
              "settlements, cities and improvements laid, the fate card, the decks and the VP: tap each exchange, "
              "each build and the end of the turn.",
        "ja": "カードゲーム：資源カードは各自の手札のまま、アプリには見えません。アプリは置いた街道・騎士・開拓地・"
              "都市・都市拡充、運命カード、山札、勝利点を記録します。交換・建設・手番終了をそれぞれタップします。"},
    # Starfarers: resources
    "fuel": {"en": "fuel", "ja": "燃料"}, "carbon": {"en": "carbon", "ja": "炭素"},
    "food": {"en": "food", "ja": "食料"}, "trade_goods": {"en": "trade goods", "ja": "交易品"},
    # ore as Starfarers' and the card game's seeds say it (companion.own_words; the base game's is 鉄)
    "ore_koseki": {"en": "ore", "ja": "鉱石"},
    # Starfarers: phases
    "sf_p_setup_colony": {"en": "{name}: place a set-up colony (tap a green site)",
                          "ja": "{name}：初期コロニーを置く（緑の地点をタップ）"},
    "sf_p_setup_spaceport": {"en": "{name}: tap a colony for the spaceport, pick a ship and an upgrade",
                             "ja": "{name}：宇宙港にするコロニーをタップし、船と強化を選ぶ"},
    "sf_p_roll": {"en": "{name}: roll the dice", "ja": "{name}：ダイスを振る"},
    # a tap fell between two close colony sites: the map zoomed in on them by itself
    "sf_p_which_site": {"en": "{name}: two sites lie close together, zoomed in: tap the one you mean",
                        "ja": "{name}：近い地点が2つあるので拡大しました。置く地点をタップ"},
    "sf_p_discard": {"en": "{name} returns {n} cards", "ja": "{name}は{n}枚返す"},
    "sf_p_steal": {"en": "{name}: take a card from whom?", "ja": "{name}：誰から1枚奪う？"},
    "sf_p_main": {"en": "{name}: build, trade, shake the mothership or end the turn",
                  "ja": "{name}：建設・交易・母船を振る・手番終了"},
    "sf_p_encounter": {"en": "{name}: encounter — enter what happened", "ja": "{name}：遭遇 — 結果を入力"},
    "sf_p_flight": {"en": "{name}: flight (movement {n}) — what did the ships do?",
                    "ja": "{name}：飛行（移動力{n}）— 船の成果は？"},
    "sf_p_game_over": {"en": "Game over — {name} wins", "ja": "ゲーム終了 — {name}の勝ち"},
    # Starfarers: pieces and actions
    "sf_colony": {"en": "Colony", "ja": "コロニー"},
    "sf_spaceport": {"en": "Spaceport", "ja": "宇宙港"},
    "sf_colony_ship": {"en": "Colony ship", "ja": "移民船"},
    "sf_trade_ship": {"en": "Trade ship", "ja": "交易船"},
    # (the Japanese words of the mothership's upgrades, the pieces and the medals are seed 003's: 動力炉, 搭載砲,
    # 船倉, 移民船, 交易ステーション, ハーフメダル -- as the voice says them)
    "sf_booster": {"en": "Booster", "ja": "動力炉"},
    "sf_cannon": {"en": "Cannon", "ja": "搭載砲"},
    "sf_freight_ring": {"en": "Freight ring", "ja": "船倉"},
    "sf_boosters": {"en": "2 boosters", "ja": "動力炉2個"},
    "sf_half_medals": {"en": "Half-medals", "ja": "ハーフメダル"},
    # the app's own shake, for a table without the mothership: "Shake mothership" beside the balls to enter read as
    # "we shake now" to a table holding the real one, and the app made up two balls (seen by taps, session 14)
    "sf_shake": {"en": "Shake in the app (no mothership at hand)", "ja": "アプリで振る（母船がない時）"},
    "sf_enter_balls": {"en": "The two balls your mothership shook:", "ja": "母船から出た2つの玉をタップ："},
    "sf_yellow": {"en": "yellow", "ja": "黄"}, "sf_red": {"en": "red", "ja": "赤"},
    "sf_blue": {"en": "blue", "ja": "青"}, "sf_black": {"en": "black", "ja": "黒"},
    "sf_shaken": {"en": "Mothership: {a} + {b} — speed {speed}, movement {movement}",
                  "ja": "母船：{a}+{b} — 速度{speed}、移動力{movement}"},
    "sf_encounter_due": {"en": "Black ball: an encounter first", "ja": "黒玉：先に遭遇"},
    "sf_found_colony": {"en": "Found colony", "ja": "コロニー建設"},
    "sf_trade_station": {"en": "Trade station", "ja": "交易ステーション"},
    "sf_defeat_pirate": {"en": "Defeat pirate base", "ja": "海賊基地を撃破"},
    "sf_terraform": {"en": "Terraform ice planet", "ja": "氷の惑星を地球化"},
    "sf_tap_site": {"en": "Tap a green colony site", "ja": "緑のコロニー地点をタップ"},
    "sf_tap_station": {"en": "Tap an alien trade station", "ja": "異種族の宇宙ステーションをタップ"},
    "sf_tap_planet": {"en": "Tap the marked planet, then its new number", "ja": "印の惑星をタップし、新しい数字を選ぶ"},
    "sf_new_number": {"en": "Replacement number chip:", "ja": "置き換える数字チップ："},
    "sf_stock": {"en": "Stock", "ja": "在庫"},
    "sf_record": {"en": "Record", "ja": "記録"},
    # over the encounter's steppers (each "ore: +1"; it was "ore (gain / lose): +1", too wide for two a row)
    "sf_encounter_head": {"en": "What the encounter gave (+) or took (−):", "ja": "遭遇で得たもの（＋）・失ったもの（−）："},
    "sf_supply_draws": {"en": "{name} draws {n} from the supply", "ja": "{name}は補充の山から{n}枚引く"},
    "sf_returns": {"en": "{name} returns {n}", "ja": "{name}は{n}枚返す"},
    "sf_took": {"en": "{name} took a card from {victim}", "ja": "{name}は{victim}から1枚奪った"},
    "sf_seven": {"en": "7: no planet produces", "ja": "7：どの惑星も生産しない"},
    # a player's tile on the VP board: the counts in words (it read "½×1" and "B2 C0 F0 · ships 1 · stations 0":
    # a first evening asked what B, C and F were; playtest s10)
    "sf_vp": {"en": "{n} VP", "ja": "{n}点"},
    "sf_cards": {"en": "{n} cards", "ja": "{n}枚"}, "sf_cards_1": {"en": "1 card", "ja": "1枚"},
    "sf_n_half_medals": {"en": "{n} half-medals", "ja": "ハーフメダル{n}枚"},
    "sf_n_half_medals_1": {"en": "1 half-medal", "ja": "ハーフメダル1枚"},
    "sf_n_boosters": {"en": "{n} boosters", "ja": "動力炉{n}"}, "sf_n_boosters_1": {"en": "1 booster", "ja": "動力炉1"},
    "sf_n_cannons": {"en": "{n} cannons", "ja": "搭載砲{n}"}, "sf_n_cannons_1": {"en": "1 cannon", "ja": "搭載砲1"},
    "sf_n_freight_rings": {"en": "{n} freight rings", "ja": "船倉{n}"},
    "sf_n_freight_rings_1": {"en": "1 freight ring", "ja": "船倉1"},
    "sf_n_ships": {"en": "{n} ships in space", "ja": "宇宙船{n}"},
    "sf_n_ships_1": {"en": "1 ship in space", "ja": "宇宙船1"},
    "sf_n_stations": {"en": "{n} trade stations", "ja": "交易ステーション{n}"},
    "sf_n_stations_1": {"en": "1 trade station", "ja": "交易ステーション1"},
    "sf_friend": {"en": "friend of {aliens}", "ja": "{aliens}の友好"},
    "green_folk": {"en": "Green Folk", "ja": "緑の民"}, "merchants": {"en": "Merchants", "ja": "商人"},
    "travelers": {"en": "Travelers", "ja": "旅人"}, "scientists": {"en": "Scientists", "ja": "科学者"},
    # the card game
    "cg_p_exchange": {"en": "{name}: exchange ({n} left) or build", "ja": "{name}：交換（残り{n}回）または建設"},
    "cg_p_build": {"en": "{name}: build (one of each kind) or end the turn",
                   "ja": "{name}：建設（各種1回まで）または手番終了"},
    "cg_p_game_over": {"en": "Game over — {name} wins", "ja": "ゲーム終了 — {name}の勝ち"},
    "cg_exchange": {"en": "Exchange", "ja": "交換"},
    "cg_pile": {"en": "Draw pile", "ja": "山札"},
    "cg_market": {"en": "Market:", "ja": "場札："},
    "cg_with": {"en": "With {name}", "ja": "{name}と"},
    "cg_road": {"en": "Road", "ja": "街道"}, "cg_knight": {"en": "Knight", "ja": "騎士"},
    "cg_settlement": {"en": "Settlement", "ja": "開拓地"}, "cg_city": {"en": "City", "ja": "都市"},
    "cg_expansion": {"en": "Expansion", "ja": "都市拡充"},  # seed 001's word (都市拡充), as 議事堂 and 市場の日
    "cg_flip_fate": {"en": "+ fate flip", "ja": "＋運命を裏返す"},
    "cg_robber_raid": {"en": "robber raid", "ja": "盗賊の襲撃"}, "cg_market_day": {"en": "market day", "ja": "市場の日"},
    "cg_church": {"en": "church", "ja": "教会"}, "cg_city_wall": {"en": "city wall", "ja": "城壁"},
    "cg_town_hall": {"en": "town hall", "ja": "議事堂"}, "cg_library": {"en": "library", "ja": "図書館"},
    "cg_merchant_guild": {"en": "merchant guild", "ja": "商人ギルド"}, "cg_other": {"en": "other", "ja": "その他"},
    "cg_fate": {"en": "Fate card: {side} ({arrow})", "ja": "運命カード：{side}（{arrow}）"},
    "cg_white": {"en": "white", "ja": "白"}, "cg_black": {"en": "black", "ja": "黒"},
    "cg_left": {"en": "← left", "ja": "← 左"}, "cg_right": {"en": "right →", "ja": "右 →"},
    "cg_end_turn": {"en": "End turn (draw {n})", "ja": "手番終了（{n}枚引く）"},
    "cg_card_text": {"en": "A card's text:", "ja": "カードの効果："},
    "cg_draw1": {"en": "Draw 1", "ja": "1枚引く"}, "cg_discard1": {"en": "Discard 1", "ja": "1枚捨てる"},
    "cg_flip": {"en": "Flip fate", "ja": "運命を裏返す"},
    "cg_three_for_one": {"en": "Pay 3 for 1", "ja": "3枚で1枚分"},
    "cg_stand_in_title": {"en": "{piece}: three identical cards for a missing one",
                          "ja": "{piece}：足りない1枚の代わりに同じカード3枚"},
    "cg_instead_of": {"en": "for {res}:", "ja": "{res}の代わりに："},
    "cg_cards_of": {"en": "{n} × {res}", "ja": "{res}×{n}"},
    "cg_cost_short": {"en": "The cards known in hand do not pay for the {piece}: choose three identical cards "
                            "for the missing one", "ja": "手札では{piece}の費用が足りません：足りない1枚の代わりの"
                                                          "同じカード3枚を選んでください"},
    "cg_no_stand_in": {"en": "No three identical cards can pay for the {piece} now",
                       "ja": "今は同じカード3枚で{piece}を支払えません"},
    "cg_tableau": {"en": "{vp} VP · {cards} cards", "ja": "{vp}点・{cards}枚"},
    "cg_tableau_1": {"en": "{vp} VP · 1 card", "ja": "{vp}点・1枚"},
    "cg_decks": {"en": "Decks: road {road} · knight {knight} · settlement {settlement} · expansion {expansion} · "
                       "pile {pile}",
                 "ja": "山：街道{road}・騎士{knight}・開拓地{settlement}・拡充{expansion}・資源山{pile}"},
    "cg_laid": {"en": "{name} laid a {piece} ({side} side)", "ja": "{name}は{piece}を置いた（{side}面）"},
    "cg_taken": {"en": "taken from {name}", "ja": "{name}から取った"},
    "cg_skipped": {"en": "skipped {name} ({why})", "ja": "{name}を飛ばした（{why}）"},
    "cg_none": {"en": "no card", "ja": "カードなし"},
    "cg_draws": {"en": "{name} draws {n}", "ja": "{name}は{n}枚引く"},
    "cg_final": {"en": "Final points:", "ja": "最終の勝利点："},
    "cg_final_line": {"en": "{n}. {name} — {vp} VP", "ja": "{n}. {name} — {vp}点"},
    "cg_exchanged_pile": {"en": "{name} exchanged a card with the draw pile", "ja": "{name}は手札1枚を山札と交換した"},
    "cg_exchanged_market": {"en": "{name} took {res} from the market for a card",
                            "ja": "{name}は手札1枚を場札の{res}と交換した"},
    "cg_exchanged_with": {"en": "{name} exchanged a card with {other}", "ja": "{name}は{other}と1枚交換した"},
    "cg_target": {"en": "Win at {n} VP", "ja": "{n}点で勝利"},
}


def resource_key(game: str | None, resource: str) -> str:
    """The text key of ``resource`` in ``game`` (the record's game name): its own word where its seed has one
    (ore: 鉱石 in Starfarers and the card game), else the app's."""
    key = own_word(game, resource)
    return key if key in TEXT or key in i18n.TEXT else resource


def install() -> None:
    """Add these texts to the app's table (the app's own keys win)."""
    for key, entry in TEXT.items():
        i18n.TEXT.setdefault(key, entry)
