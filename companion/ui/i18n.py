"""Every text the app shows, in English and Japanese.

One table, keyed by a short name, so a screen never holds a literal string and switching the
language is one property change (:class:`~companion.ui.app.CompanionApp` ``lang``); kv rules call
``app.tr('key')`` and re-evaluate when ``lang`` changes.  A key missing in Japanese falls back to
English, a key missing everywhere shows itself in brackets so it is noticed on a screenshot.
"""

from __future__ import annotations

LANGUAGES = ("en", "ja")

TEXT: dict[str, dict[str, str]] = {
    "app_title": {"en": "Catan companion", "ja": "カタン・コンパニオン"},
    # start
    "new_game": {"en": "New game", "ja": "新しいゲーム"},
    "resume": {"en": "Resume a game", "ja": "ゲームを再開"},
    "settings": {"en": "Settings", "ja": "設定"},
    "statistics": {"en": "Statistics", "ja": "統計"},
    "tournament": {"en": "Tournament desk", "ja": "大会本部"},  # the organiser's; a table's tablet: Tournament table
    "no_unfinished": {"en": "No unfinished game in the journal.", "ja": "続きのゲームはありません。"},
    "game_line": {"en": "#{id} {title} — {events} events", "ja": "#{id} {title} — {events}手"},
    "demo_note": {"en": "Demo: dice come from the dice-box simulator.",
                  "ja": "デモ：ダイスはダイスボックスのシミュレーターから届きます。"},
    # new game
    "game": {"en": "Game", "ja": "ゲーム"},
    "g_base": {"en": "Base 3–4", "ja": "基本 3–4人"},
    "g_base56": {"en": "Base 5–6", "ja": "基本 5–6人"},
    "g_seafarers": {"en": "Seafarers", "ja": "航海者"},
    "g_high-tide": {"en": "High Tide", "ja": "満潮"},
    "players": {"en": "Players", "ja": "プレイヤー"},
    "count_refused": {"en": "{game} is played by {low} to {high} players", "ja": "{game}は{low}〜{high}人で遊びます"},
    "player_n": {"en": "Player {n}", "ja": "プレイヤー{n}"},
    "seed": {"en": "Board seed", "ja": "盤面シード"},
    "separate_reds": {"en": "No 6 next to 8", "ja": "6と8を隣接させない"},
    "leader_vp8": {"en": "Leader at 8 VP", "ja": "リーダー8点"},
    "robber_to_desert": {"en": "Robber to desert", "ja": "盗賊は砂漠へ"},
    "flood_all": {"en": "Flood all hexes", "ja": "全ヘクス浸水"},
    "spring_tide": {"en": "Spring tide", "ja": "大潮"},
    "generate": {"en": "Generate board", "ja": "盤面を生成"},
    "sea_map": {"en": "Map", "ja": "マップ"}, "map_new_world": {"en": "New world", "ja": "新世界"},
    "map_four_islands": {"en": "Four islands", "ja": "4つの島"},
    "enter_board": {"en": "Enter / edit board", "ja": "盤面を入力・編集"},
    "import": {"en": "Import JSON", "ja": "JSON読込"},
    "export": {"en": "Export JSON", "ja": "JSON書出"},
    "start": {"en": "Start", "ja": "開始"},
    "back": {"en": "Back", "ja": "戻る"},
    "board_ok": {"en": "Board is valid.", "ja": "盤面は正しいです。"},
    # a board short of the set's harbours starts (a table may play so), but is said: a scanned photo that cut the
    # frame off went on into the game with none
    "board_ok_harbours_short": {"en": "Board is valid, with {have} of the set's {want} harbours: Harbor adds the others.",
                                "ja": "盤面は正しいですが、港が{want}個中{have}個です。「港」で残りを追加できます。"},
    "harbours_short_line": {"en": "{have} of the set's {want} harbours: Harbor adds the others.",
                            "ja": "港は{want}個中{have}個です。「港」で残りを追加できます。"},
    # colours
    "red": {"en": "red", "ja": "赤"}, "blue": {"en": "blue", "ja": "青"}, "white": {"en": "white", "ja": "白"},
    "orange": {"en": "orange", "ja": "オレンジ"}, "green": {"en": "green", "ja": "緑"},
    "brown": {"en": "brown", "ja": "茶色"},
    # resources
    "lumber": {"en": "lumber", "ja": "木材"}, "brick": {"en": "brick", "ja": "レンガ"},
    "wool": {"en": "wool", "ja": "羊毛"}, "grain": {"en": "grain", "ja": "小麦"}, "ore": {"en": "ore", "ja": "鉄"},
    # terrains
    "forest": {"en": "forest", "ja": "森林"}, "hills": {"en": "hills", "ja": "丘陵"},
    "pasture": {"en": "pasture", "ja": "牧草地"}, "fields": {"en": "fields", "ja": "畑"},
    "mountains": {"en": "mountains", "ja": "山地"}, "desert": {"en": "desert", "ja": "砂漠"},
    "gold": {"en": "gold", "ja": "金鉱"}, "sea": {"en": "sea", "ja": "海"},
    # pieces
    "road": {"en": "Road", "ja": "道"}, "settlement": {"en": "Settlement", "ja": "開拓地"},
    "city": {"en": "City", "ja": "都市"}, "ship": {"en": "Ship", "ja": "船"}, "dike": {"en": "Dike", "ja": "堤防"},
    # play
    "turn_of": {"en": "{name}'s turn", "ja": "{name}の番"},
    "p_setup_settlement": {"en": "{name}: place a settlement (tap a green corner)",
                           "ja": "{name}：開拓地を置く（緑の角をタップ）"},
    "p_setup_road": {"en": "{name}: place a road beside it (tap a green side)",
                     "ja": "{name}：隣に道を置く（緑の辺をタップ）"},
    "p_setup_road_or_ship": {"en": "{name}: place a road or a ship beside it (tap a green side; on the sea: a ship)",
                             "ja": "{name}：隣に道か船を置く（緑の辺をタップ。海の辺なら船）"},
    "p_roll": {"en": "{name}: roll the dice", "ja": "{name}：ダイスを振る"},
    "p_main": {"en": "{name}: tap a side or corner to build, trade, or end the turn",
               "ja": "{name}：辺か角をタップで建設・交易・手番終了"},
    # (a tap on a resource's name takes all of it up to what is owed: choices.TakeAll; with cards nobody has seen,
    # the known ones, the rest by +)
    "p_discard": {"en": "{name} discards {n} cards: tap a resource for all of it",
                  "ja": "{name}は{n}枚捨てる：資源をタップでまとめて選択"},
    "p_discard_unseen": {"en": "{name} discards {n} cards (hand: {u} unseen): tap a resource for all of it",
                         "ja": "{name}は{n}枚捨てる（手札の{u}枚は不明）：資源をタップでまとめて選択"},
    "p_move_robber": {"en": "{name}: move the robber (tap a marked hex)", "ja": "{name}：盗賊を移動（印のヘクスをタップ）"},
    "p_steal": {"en": "{name}: rob whom?", "ja": "{name}：誰から奪う？"},
    "p_gold_1": {"en": "{name}: choose 1 card for gold", "ja": "{name}：金鉱のカードを1枚選ぶ"},
    "p_gold": {"en": "{name}: choose {n} cards for gold", "ja": "{name}：金鉱のカードを{n}枚選ぶ"},
    "p_flood": {"en": "{name}: tap the hex the tide floods", "ja": "{name}：浸水するヘクスをタップ"},
    # (the next roll ends the phase: the table is told who rolls once the builders are done)
    "p_special_build": {"en": "Special building: {name} (then {roller} rolls)",
                        "ja": "特別建設：{name}（済んだら{roller}がダイスを振ります）"},
    "p_game_over": {"en": "Game over — {name} wins", "ja": "ゲーム終了 — {name}の勝ち"},
    # High Tide's end with players level on points and on cards: the seed names no one of them (game_over.py)
    "p_game_over_shared": {"en": "Game over — {name} share the win", "ja": "ゲーム終了 — {name}の同点勝ち"},
    "p_time_limit": {"en": "Game over — ended by the round's time limit", "ja": "ゲーム終了 — ラウンドの制限時間"},
    "dice": {"en": "Dice", "ja": "ダイス"},
    "tap_dice": {"en": "Tap both dice:", "ja": "2つのダイスをタップ："},
    "roll_box": {"en": "Roll (box)", "ja": "ボックスで振る"},
    "camera_view": {"en": "Camera view", "ja": "カメラの映像"},
    "camera_view_none": {"en": "No picture from the camera yet — tap to close",
                         "ja": "カメラの映像がまだありません — タップで閉じる"},
    "camera_view_moving": {"en": "Something moves in the tray — tap to close",
                           "ja": "トレイの中で何かが動いています — タップで閉じる"},
    "camera_view_dice": {"en": "Lying still: {dice} — tap to close", "ja": "止まっているダイス：{dice} — タップで閉じる"},
    "camera_view_no_dice": {"en": "No die in the tray — tap to close", "ja": "トレイにダイスがありません — タップで閉じる"},
    "camera_view_looking": {"en": "Waiting for the dice to lie still — tap to close",
                            "ja": "ダイスが止まるのを待っています — タップで閉じる"},
    "stats_short": {"en": "Stats", "ja": "統計"},
    "rolled": {"en": "Rolled {n}", "ja": "出目 {n}"},
    "camera_saw": {"en": "as the camera read them (tap: its photo) — wrong? Undo, then tap the dice",
                   "ja": "カメラの読み取り（タップで写真）— 違うときは「元に戻す」でダイスをタップ"},
    "camera_saw_confirm": {"en": "as the camera read them (tap: its photo) — OK records them; wrong? tap the dice",
                           "ja": "カメラの読み取り（タップで写真）— OKで記録、違うときはダイスをタップ"},
    "confirm_roll": {"en": "OK: {dice}", "ja": "OK：{dice}"},
    "confirm_camera": {"en": "Camera rolls wait for OK", "ja": "カメラの出目はOKで記録"},
    "camera_saw_reroll": {"en": "what the camera saw (red: could not read; tap: its photo) — roll again, or tap the dice",
                          "ja": "カメラが見たダイス（赤枠は読めず・タップで写真）— 振り直すか、ダイスをタップ"},
    "roll_photo": {"en": "The camera's photo of the roll {dice} (kept with the game) — tap to close",
                   "ja": "出目 {dice} のカメラ写真（記録に保存）— タップで閉じる"},
    "reroll_photo": {"en": "What the camera saw before asking to roll again — tap to close",
                     "ja": "振り直しを求めたときのカメラ写真 — タップで閉じる"},
    "payouts": {"en": "Payouts", "ja": "収穫"},
    "nobody_gets": {"en": "Nobody receives anything.", "ja": "誰も収穫なし。"},
    "receives": {"en": "{name}: {cards}", "ja": "{name}：{cards}"},
    # a roll put right (undone, entered again with other faces): what the wrong one paid goes back first
    "gives_back": {"en": "{name} gives back {cards}", "ja": "{name}は{cards}を戻す"},
    "shortage": {"en": "Bank short of {res}: nobody gets it", "ja": "銀行の{res}不足：誰も受け取れない"},
    "undo": {"en": "Undo", "ja": "元に戻す"},  # not 取消: that is Cancel
    "redo": {"en": "Redo", "ja": "やり直し"},
    "end_turn": {"en": "End turn", "ja": "手番終了"},
    "end_turn_count": {"en": "End turn:\n{dice} for {name}", "ja": "手番終了：\n{name}の出目 {dice}"},
    "build": {"en": "Build", "ja": "建設"},
    "dev_card": {"en": "Buy dev card", "ja": "発展カード購入"},
    "knight": {"en": "Play knight", "ja": "騎士を使う"},
    "trade": {"en": "Trade", "ja": "交易"},
    "play_card": {"en": "Play card", "ja": "カードを使う"},
    "with": {"en": "With", "ja": "相手"},
    "sb_who": {"en": "Builds", "ja": "建設者"},
    "bank": {"en": "Bank", "ja": "銀行"},
    "c_knight": {"en": "Knight", "ja": "騎士"},
    "c_road_building": {"en": "Road building", "ja": "街道建設"},
    "c_year_of_plenty": {"en": "Year of plenty", "ja": "収穫"},
    "c_monopoly": {"en": "Monopoly", "ja": "独占"},
    "taken_title": {"en": "{res} handed over by each player", "ja": "各プレイヤーが渡した{res}"},
    "taken_of": {"en": "{name} (holds {n})", "ja": "{name}（手札{n}枚）"},
    "cancel": {"en": "Cancel", "ja": "取消"},
    # umpire corrections
    "umpire": {"en": "Umpire", "ja": "審判"},
    "umpire_title": {"en": "Umpire corrections (recorded as such)", "ja": "審判による訂正（訂正として記録）"},
    "force": {"en": "Record anyway (umpire)", "ja": "それでも記録する（審判）"},
    "force_confirm": {"en": "Record it although the rules say: {why}?", "ja": "ルール違反（{why}）ですが記録しますか？"},
    "force_yes": {"en": "Yes, record it (umpire)", "ja": "記録する（審判）"},
    "forced_done": {"en": "Recorded by the umpire, against: {why}", "ja": "審判が記録（違反：{why}）"},
    "set_hand": {"en": "Hand", "ja": "手札"},
    "hand_unseen_1": {"en": "1 card nobody has seen: give the whole hand", "ja": "不明なカード1枚：手札全部を入力"},
    "hand_unseen": {"en": "{n} cards nobody has seen: give the whole hand", "ja": "不明なカード{n}枚：手札全部を入力"},
    "set_hand_ok": {"en": "Set {name}'s hand ({n} cards)", "ja": "{name}の手札を{n}枚にする"},
    "remove": {"en": "Remove", "ja": "取り除く"},
    "remove_building": {"en": "Settlement / city", "ja": "開拓地・都市"},
    "remove_link": {"en": "Road / ship", "ja": "道・船"},  # (the build button's 道: one word per thing)
    "note_hint": {"en": "A note for the record…", "ja": "記録に残すメモ…"},
    "note_record": {"en": "Record note", "ja": "メモを記録"},
    "note_empty": {"en": "Type the note first: an empty note is not recorded",
                   "ja": "先にメモを入力してください（空のメモは記録しません）"},
    "notes_title": {"en": "Notes (newest first):", "ja": "メモ（新しい順）："},
    "notes_more": {"en": "… and {n} earlier", "ja": "…ほか以前のメモ{n}件"},
    "ok": {"en": "OK", "ja": "OK"},
    "unseen": {"en": "card unseen", "ja": "カード不明"},
    "rob": {"en": "Rob {name}", "ja": "{name}から奪う"},
    "vp": {"en": "VP", "ja": "点"},
    "cards": {"en": "cards", "ja": "枚"},
    "card": {"en": "card", "ja": "枚"},
    "longest_road": {"en": "Longest Road", "ja": "最長交易路"},
    "largest_army": {"en": "Largest Army", "ja": "最大騎士力"},
    "leader": {"en": "Leader", "ja": "リーダー"},
    "leader_is": {"en": "leader: {name}", "ja": "リーダー：{name}"},
    "give": {"en": "Give", "ja": "出す"},
    "get": {"en": "Get", "ja": "受け取る"},
    "menu": {"en": "Menu", "ja": "メニュー"},
    "ranking": {"en": "Ranking", "ja": "順位"},
    "play_again": {"en": "New game, same players", "ja": "同じメンバーで新しいゲーム"},
    "ranking_cards": {"en": " ({n} cards)", "ja": "（手札{n}枚）"}, "ranking_cards_1": {"en": " (1 card)", "ja": "（手札1枚）"},
    "tide_phase": {"en": "Tide: {phase}", "ja": "潮：{phase}"},
    "normal": {"en": "normal", "ja": "通常"}, "dike_round": {"en": "dike round", "ja": "堤防ラウンド"},
    "high_tide": {"en": "high tide", "ja": "満潮"}, "spring_tide_phase": {"en": "spring tide", "ja": "大潮"}, "ended": {"en": "ended", "ja": "終了"},
    "flooded": {"en": "The tide floods {hex}.", "ja": "{hex}が浸水しました。"},
    "sank": {"en": "Sank: {what}", "ja": "沈んだもの：{what}"},
    "illegal": {"en": "Not allowed: {why}", "ja": "できません：{why}"},
    # a dice box or a camera rolls whenever the dice are thrown, at set-up or with the robber waiting too
    "roll_not_counted": {"en": "The {source} rolled {dice}: not counted, {why}",
                         "ja": "{source}の{dice}は数えません：{why}"},
    "roll_source_box": {"en": "dice box", "ja": "ダイスボックス"},
    "roll_source_camera": {"en": "camera", "ja": "カメラ"},
    # dice source status
    "src_idle": {"en": "idle", "ja": "待機"}, "src_searching": {"en": "searching…", "ja": "検索中…"},
    "src_connected": {"en": "connected", "ja": "接続済み"}, "src_rolling": {"en": "rolling…", "ja": "転がり中…"},
    "src_disconnected": {"en": "disconnected", "ja": "切断"}, "src_error": {"en": "error", "ja": "エラー"},
    "src_reroll": {"en": "roll again", "ja": "振り直し"},
    "source_line": {"en": "{source}: {state}", "ja": "{source}：{state}"},
    # the dice source on that line, by its address's scheme, in the Settings' words (a box's model stays as it
    # reports it); a scheme set outside Settings without a name here is shown as written
    "source_name_manual": {"en": "tapped dice", "ja": "タップ入力"},
    "source_name_box": {"en": "dice box", "ja": "ダイスボックス"},
    "source_name_sim": {"en": "simulated box", "ja": "模擬ダイスボックス"},
    "source_name_camera": {"en": "camera", "ja": "カメラ"},
    "source_name_virtual": {"en": "virtual dice", "ja": "仮想ダイス"},
    "source_unusable": {"en": "{url} cannot be used; check Settings, Dice source",
                        "ja": "{url} は使えません。設定の「ダイスの入力」を確かめてください"},
    "source_detail": {"en": " ({detail})", "ja": "（{detail}）"},
    "roll_already_recorded": {"en": "the box sent {dice} again: already recorded, not counted twice",
                              "ja": "ボックスが{dice}を再送：記録済みのため二重には数えません"},
    # what a dice source says (SourceStatus.reason): why the dice must be rolled again, what the camera does
    "why_crooked_dice": {"en": "crooked dice", "ja": "ダイスが傾いています"},
    "why_cocked": {"en": "a die is crooked", "ja": "傾いたダイスがあります"},
    "why_count": {"en": "{seen} dice seen, expected {expected}", "ja": "ダイスが{seen}個見えます（{expected}個のはず）"},
    "why_unreadable": {"en": "{count} dice crooked or unreadable", "ja": "読めないダイスが{count}個あります"},
    "why_opening": {"en": "opening {spec}", "ja": "{spec} を開いています"},
    "why_watching": {"en": "watching {name}", "ja": "{name} を見ています"},
    "why_watching_uncalibrated": {"en": "watching {name}; no tray set, the whole picture is read: Settings, "
                                        "Camera calibration",
                                  "ja": "{name} を見ています。トレイ未設定のため画像全体を読みます：設定のカメラ較正へ"},
    "why_end_of_video": {"en": "{name}: end of video", "ja": "{name}：動画の終わり"},
    "why_no_frames": {"en": "{name}: no more frames; retrying", "ja": "{name}：画像が来ません。再試行します"},
    "why_moving": {"en": "dice moving", "ja": "ダイスが動いています"},
    "why_too_dark": {"en": "the tray is too dark to read: more light on it",
                     "ja": "トレイが暗すぎて読めません。明かりを当ててください"},
    "why_still": {"en": "dice still", "ja": "ダイスが止まりました"},
    "why_camera_moved": {"en": "the camera moved; dice and tray followed (calibrate again to keep the new view)",
                         "ja": "カメラが動きました。ダイスとトレイを追いました（この位置を保存するには較正し直してください）"},
    # statistics
    "histogram": {"en": "Rolls against the expected curve", "ja": "出目の分布と期待値"},
    "production": {"en": "Production so far", "ja": "これまでの収穫"},
    "fairness": {"en": "Fairness (chi-squared, 10 d.f.): {chi:.1f}, p = {p:.2f}",
                 "ja": "公平性（カイ二乗、自由度10）：{chi:.1f}、p = {p:.2f}"},
    "too_few_rolls": {"en": "Fairness: needs at least 36 rolls ({n} so far)",
                      "ja": "公平性：36回以上の出目が必要（現在{n}回）"},
    "rolls_n": {"en": "Rolls so far: {n}", "ja": "これまでの出目：{n}回"},
    "camera_rolls": {"en": "The camera's photos ({n}): its misreads, then its rolls, newest first — tap one to see it:",
                     "ja": "カメラの写真（{n}枚）：読み違い、出目の新しい順 — タップで表示："},
    "camera_roll_button": {"en": "roll {n}\n{total} ({dice})", "ja": "{n}回目\n{total}（{dice}）"},
    "camera_misread_button": {"en": "misread\n{read} → {entered}", "ja": "読み違い\n{read} → {entered}"},
    "misread_photo": {"en": "The camera read {read}; entered by hand as {entered} — tap to close",
                      "ja": "カメラは{read}と読み、手で{entered}に直した — タップで閉じる"},
    "camera_accuracy": {"en": "Rolls the camera read: {read}; put right by hand: {fixed}.",
                        "ja": "カメラが読んだ出目{read}回、うち手で直したもの{fixed}回。"},
    # after camera_accuracy, when the table puts the camera right often and its rolls are recorded at once
    "camera_advice": {"en": " To check each roll before it counts: Settings, \"Camera rolls wait for OK\".",
                      "ja": "出目を記録前に確かめるには：設定の「カメラの出目はOKで記録」。"},
    # settings
    "language": {"en": "Language", "ja": "言語"},
    "voice": {"en": "Voice", "ja": "音声"},
    "volume": {"en": "Volume", "ja": "音量"},
    "dice_source": {"en": "Dice source", "ja": "ダイスの入力"},
    "box_port": {"en": "Box port", "ja": "ボックスのポート"},
    "camera": {"en": "Camera", "ja": "カメラ"},
    "source_manual": {"en": "Tap the dice on the screen", "ja": "画面でダイスをタップ"},
    "source_box": {"en": "Dice box (USB)", "ja": "ダイスボックス（USB）"},
    "source_camera": {"en": "Camera over the tray", "ja": "トレイの上のカメラ"},
    "source_sim": {"en": "Practice: simulated dice box", "ja": "練習：模擬ダイスボックス"},
    "found_looking": {"en": "Looking for dice boxes and cameras…", "ja": "ダイスボックスとカメラを探しています…"},
    "found_here": {"en": "Found here: {boxes}; {cameras}", "ja": "この端末で見つかったもの：{boxes}、{cameras}"},
    "found_box": {"en": "dice box {model} on {port}", "ja": "ダイスボックス {model}（{port}）"},
    "found_no_box": {"en": "no dice box", "ja": "ダイスボックスなし"},
    "found_camera": {"en": "camera {number} ({size})", "ja": "カメラ {number}（{size}）"},
    # (a phone streaming to the tablet is no camera of the tablet: "no camera" read as "your camera is not there")
    "found_no_camera": {"en": "no built-in or USB camera", "ja": "内蔵・USBカメラなし"},
    "found_in_use": {"en": "Found here: the dice source of the open game is in use (its line on the dice panel "
                           "says which); the others are looked for from the start screen.",
                     "ja": "開いているゲームのダイス入力を使用中です（ダイス欄に表示）。他の機器はスタート画面から"
                           "開いた設定で探します。"},
    "camera_hint": {"en": "0 back camera, 1 front, or http://… of a phone", "ja": "0＝背面、1＝前面、またはスマホのhttp://…"},
    "camera_problem_empty": {"en": "Camera: enter its number (0 is a tablet's back camera, 1 its front) or a stream "
                                   "address (http://…)",
                             "ja": "カメラ：番号（タブレットの背面は0、前面は1）かストリームのアドレス（http://…）を入力してください"},
    "camera_problem_scheme": {"en": "Camera: a {scheme}:// address cannot be read; a stream's address starts with "
                                    "http://, https:// or rtsp://",
                              "ja": "カメラ：{scheme}:// のアドレスは読めません。ストリームのアドレスは http://、https://、"
                                    "rtsp:// で始まります"},
    "camera_problem_unknown": {"en": "Camera: \"{entry}\" is not a camera number, a stream address (http://…, "
                                     "rtsp://…) or a video file",
                               "ja": "カメラ：「{entry}」はカメラの番号でもストリームのアドレス（http://…、rtsp://…）でも"
                                     "動画ファイルでもありません"},
    "nothing_saved": {"en": ". Nothing was saved.", "ja": "。何も保存していません。"},
    "camera_calibration": {"en": "Camera calibration", "ja": "カメラ較正"},
    "save": {"en": "Save", "ja": "保存"},
    "on": {"en": "on", "ja": "オン"}, "off": {"en": "off", "ja": "オフ"},
    # board editor
    "board_editor": {"en": "Board editor", "ja": "盤面エディター"},
    "editor_help": {"en": "tap a hex (or, for a harbor, a coast side), then what it is.",
                    "ja": "ヘクス（港は海岸の辺）をタップして種類を選ぶ。"},
    "terrain": {"en": "Terrain", "ja": "地形"},
    "number": {"en": "Number", "ja": "数字"},
    "harbor": {"en": "Harbor", "ja": "港"},
    "use_board": {"en": "Use this board", "ja": "この盤面を使う"},
    "use_board_as_laid": {"en": "Use it as it is", "ja": "このまま使う"},
    "problems_1": {"en": "1 problem:{first}", "ja": "問題1件：{first}"},
    "problems": {"en": "{n} problems:{first}", "ja": "問題{n}件：{first}"},
    "problems_as_laid": {"en": "{n} differences from a standard board (if yours is so: Use it as it is):{first}",
                         "ja": "標準の盤面と違う点が{n}件（実際の盤面がこの通りなら「このまま使う」）：{first}"},
    "problems_as_laid_1": {"en": "1 difference from a standard board (if yours is so: Use it as it is):{first}",
                           "ja": "標準の盤面と違う点が1件（実際の盤面がこの通りなら「このまま使う」）：{first}"},
    "saved_to": {"en": "Saved to {path}", "ja": "{path} に保存"},
}


def tr(key: str, lang: str = "en", **values) -> str:
    """The text for ``key`` in ``lang``, with ``{name}`` fields filled from ``values``."""
    one = TEXT.get(key + "_1")
    if values.get("n") == 1 and one is not None and lang in one:
        key = key + "_1"  # a count of one said as one: "1 card", not "1 card(s)" (a "_1" text in that language)
    entry = TEXT.get(key)
    if entry is None:
        return f"[{key}]"
    text = entry.get(lang) or entry["en"]
    return text.format(**values) if values else text


def cards_text(cards: dict[str, int], lang: str) -> str:
    """``{"wool": 2, "ore": 1}`` as ``2 wool, 1 ore`` / ``羊毛2、鉱石1``."""
    if lang == "ja":
        return "、".join(f"{tr(r, lang)}{n}" for r, n in sorted(cards.items()) if n)
    return ", ".join(f"{n} {tr(r, lang)}" for r, n in sorted(cards.items()) if n)
