"""The dice box's firmware logic, hardware-free: runs on the box (MicroPython) and in the simulator.

Everything the box touches goes through a HAL object (see ``hal.py`` for the interface and
``hal_rp2040.py`` for the real board); the simulator gives it a pseudo-terminal and a scripted
motion sensor instead.  ``DiceBox.step()`` is one pass of the main loop and never blocks, so the
same code runs under MicroPython's ``while True`` and inside the simulator's event loop.

What it does (docs/dice-box-protocol.md has the messages):

* watches the motion sensor: still -> handling -> rolling -> still again for ``settle_ms``; only a
  rolling phase of at least ``min_roll_ms`` makes a roll (picking the box up and putting it down
  does not), and a die the reader cannot read makes the roll "crooked" (no result; roll again);
* numbers each result (boot id + roll id), keeps it in a queue that survives a reboot (the HAL
  stores it in flash) and sends the oldest again every ``resend_ms`` until the host acks it --
  one at a time, so results arrive in order;
* answers identify, ping, show and roll requests, and sends a heartbeat every ``heartbeat_ms``.

MicroPython subset: no dataclasses, typing, enums or f-strings.
"""

try:
    from firmware_bridge import codec
except ImportError:  # on the box, codec.py sits beside this file
    import codec

MODEL = "DiceBox-2040"
FIRMWARE = (1, 0, 0)

# Motion levels the HAL reports.
STILL = 0
MOVED = 1     # handled: picked up, tilted, tapped
SHAKEN = 2    # rolling: dice tumbling

_RECORD_LEN = 2  # length prefix of each stored result


class DiceBox:
    """One box: call ``step()`` as often as possible (``idle_ms()`` says how long it may wait)."""

    def __init__(self, hal, dice=2, colours=(1, 2), caps=None, settle_ms=400, min_roll_ms=150,
                 resend_ms=250, heartbeat_ms=1000, queue_max=16, shake_ms=1200):
        self.hal = hal
        self.dice = dice
        self.colours = tuple(colours)
        if caps is None:
            caps = codec.CAP_DISPLAY | codec.CAP_DIE_COLOURS | codec.CAP_COLOUR_LED
            if hal.has_motor():
                caps |= codec.CAP_AUTO_ROLL
        self.caps = caps
        self.settle_ms = settle_ms
        self.min_roll_ms = min_roll_ms
        self.resend_ms = resend_ms
        self.heartbeat_ms = heartbeat_ms
        self.queue_max = queue_max
        self.shake_ms = shake_ms
        self.boot_id = hal.boot_id()
        self.decoder = codec.Decoder(on_error=self._frame_error)
        self.state = codec.IDLE
        self.next_roll = 1
        self.pending = []          # [RollResult, settled_at_ms], oldest first
        self.on_result = None      # the simulator's tap on every result made (ground truth)
        now = hal.ticks_ms()
        self.booted_at = now
        self._state_since = now
        self._still_since = None
        self._roll_started = None
        self._sent_at = None       # when the head of the queue was last sent
        self._beat_at = now
        self._load_pending(now)
        self.send(codec.Identify(MODEL, FIRMWARE, self.boot_id, self.dice, self.caps))
        hal.display((0,) * dice)

    # --- output ---------------------------------------------------------------------------------

    def send(self, message):
        self.hal.write(codec.encode(message))

    def _frame_error(self, error):
        # A frame that came through whole (its CRC right) but that the box does not understand is answered,
        # with the frame's request id, so the host's request does not go unanswered; a damaged one is not.
        if error.kind == "version":
            self.send(codec.Error(codec.ERR_VERSION, "box speaks protocol %d" % codec.PROTOCOL_VERSION,
                                  req=error.req))
        elif error.kind in ("type", "body"):
            self.send(codec.Error(codec.ERR_BAD_REQUEST, error.text, req=error.req))

    # --- main loop ------------------------------------------------------------------------------

    def step(self):
        """One pass: read the port, handle requests, watch the dice, resend, beat."""
        hal = self.hal
        now = hal.ticks_ms()
        data = hal.read()
        if data:
            for message in self.decoder.feed(data):
                self._handle(message, now)
        if hal.button_pressed() and self._can_shake() is None:
            self._start_shake(now)
        self._sense(now)
        self._resend(now)
        if hal.ticks_diff(now, self._beat_at) >= self.heartbeat_ms:
            self._beat_at = now
            self.send(codec.Heartbeat(self.boot_id, hal.ticks_diff(now, self.booted_at),
                                      len(self.pending), self.state))

    def idle_ms(self):
        """How long the main loop may sleep before something is due (sensor polling excepted)."""
        hal = self.hal
        now = hal.ticks_ms()
        wait = self.heartbeat_ms - hal.ticks_diff(now, self._beat_at)
        if self.pending and self._sent_at is not None:
            wait = min(wait, self.resend_ms - hal.ticks_diff(now, self._sent_at))
        elif self.pending:
            wait = 0
        if self.state in (codec.HANDLING, codec.ROLLING):
            if self._still_since is None:
                wait = min(wait, 1)
            else:
                wait = min(wait, self.settle_ms - hal.ticks_diff(now, self._still_since))
        return max(0, wait)

    # --- requests -------------------------------------------------------------------------------

    def _handle(self, message, now):
        kind = type(message)
        if kind is codec.Ack:
            self._acked(message.boot_id, message.roll_id, now)
        elif kind is codec.IdentifyRequest:
            self.send(codec.Identify(MODEL, FIRMWARE, self.boot_id, self.dice, self.caps, req=message.req))
        elif kind is codec.Ping:
            self.send(codec.Pong(message.nonce, req=message.req))
        elif kind is codec.Show:
            self.hal.display(message.values)
            self.hal.led(message.colour)
            self.send(codec.Done(req=message.req))
        elif kind is codec.RollRequest:
            refused = self._can_shake()
            if refused is None:
                self.send(codec.Done(req=message.req))
                self._start_shake(now)
            else:
                self.send(codec.Error(refused[0], refused[1], req=message.req))
        else:  # a box-to-host message sent to the box
            self.send(codec.Error(codec.ERR_BAD_REQUEST, "unexpected %s" % kind.__name__, req=message.req))

    def _can_shake(self):
        """None when the motor may roll the dice now, else (error code, why)."""
        if not self.caps & codec.CAP_AUTO_ROLL:
            return codec.ERR_NOT_SUPPORTED, "this box cannot roll by itself"
        if self.state in (codec.HANDLING, codec.ROLLING):
            return codec.ERR_BUSY, "a roll is in progress"
        if len(self.pending) >= self.queue_max:
            return codec.ERR_QUEUE_FULL, "%d results await acks" % len(self.pending)
        return None

    def _start_shake(self, now):
        # The motor throws the dice: rolling at once (no handling), so a second request is refused as
        # busy even before the motion sensor feels the shaking.
        self.hal.shake(self.shake_ms)
        self._enter(codec.ROLLING, now)
        self._roll_started = now

    # --- the dice -------------------------------------------------------------------------------

    def _enter(self, state, now):
        self.state = state
        self._state_since = now
        self._still_since = None
        self.send(codec.RollState(self.boot_id, self.next_roll, state))

    def _sense(self, now):
        hal = self.hal
        try:
            motion = hal.motion()
        except OSError as error:
            self.send(codec.Error(codec.ERR_SENSOR, "motion sensor: %s" % (error,)))
            return
        state = self.state
        if state in (codec.IDLE, codec.SETTLED, codec.CROOKED):
            if motion == SHAKEN:
                self._enter(codec.ROLLING, now)
                self._roll_started = now
            elif motion == MOVED:
                self._enter(codec.HANDLING, now)
            return
        # HANDLING or ROLLING
        if motion == SHAKEN and state == codec.HANDLING:
            self._enter(codec.ROLLING, now)
            self._roll_started = now
            return
        if motion != STILL:
            self._still_since = None
            return
        if self._still_since is None:
            self._still_since = now
        if hal.ticks_diff(now, self._still_since) < self.settle_ms:
            return
        if state == codec.HANDLING:
            self._enter(codec.IDLE, now)   # put down without rolling: no result
        elif hal.ticks_diff(self._still_since, self._roll_started) < self.min_roll_ms:
            self._enter(codec.IDLE, now)   # a bump, not a roll
        else:
            self._settle(now)

    def _settle(self, now):
        try:
            faces = self.hal.read_dice(self.dice)
        except OSError as error:
            self.send(codec.Error(codec.ERR_SENSOR, "die reader: %s" % (error,)))
            self._enter(codec.CROOKED, now)
            return
        if faces is None or len(faces) != self.dice or None in faces:
            self._enter(codec.CROOKED, now)
            self.hal.display((0,) * self.dice)
            return
        if len(self.pending) >= self.queue_max:
            # The host has not acked for a long time; refusing the roll keeps every reported roll.
            self.send(codec.Error(codec.ERR_QUEUE_FULL, "%d results await acks; roll again later"
                                  % len(self.pending)))
            self._enter(codec.IDLE, now)
            return
        result = codec.RollResult(self.boot_id, self.next_roll, tuple(faces), self.colours, 0)
        self.pending.append([result, now])
        self._save_pending()
        self.hal.display(faces)
        self._enter(codec.SETTLED, now)
        self.next_roll += 1
        if self.on_result is not None:
            self.on_result(result)
        if len(self.pending) == 1:
            self._send_head(now)

    # --- results until acked --------------------------------------------------------------------

    def _send_head(self, now):
        result, settled_at = self.pending[0]
        result.age_ms = max(0, self.hal.ticks_diff(now, settled_at))
        self._sent_at = now
        self.send(result)

    def _resend(self, now):
        if self.pending and (self._sent_at is None
                             or self.hal.ticks_diff(now, self._sent_at) >= self.resend_ms):
            self._send_head(now)

    def _acked(self, boot_id, roll_id, now):
        for i in range(len(self.pending)):
            result = self.pending[i][0]
            if result.boot_id == boot_id and result.roll_id == roll_id:
                del self.pending[i]
                self._save_pending()
                if i == 0:
                    self._sent_at = None
                    if self.pending:
                        self._send_head(now)
                return

    def _save_pending(self):
        blob = bytearray()
        for result, _ in self.pending:
            data = codec.payload(result)
            blob.extend(bytes([len(data) >> 8, len(data) & 0xFF]))
            blob.extend(data)
        self.hal.save_pending(bytes(blob))

    def _load_pending(self, now):
        blob = self.hal.load_pending()
        if not blob:
            return
        i = 0
        while i + _RECORD_LEN <= len(blob):
            n = (blob[i] << 8) | blob[i + 1]
            data = blob[i + _RECORD_LEN:i + _RECORD_LEN + n]
            i += _RECORD_LEN + n
            try:
                result = codec.parse_payload(data)
            except ValueError:
                continue  # a torn write: the CRC says this record is not whole
            if isinstance(result, codec.RollResult):
                self.pending.append([result, now])
