"""The dice-box wire protocol: messages, COBS framing and CRC-16 (see docs/dice-box-protocol.md).

Pure and shared: the host (CPython) and the box's firmware (MicroPython) import this same file, so
it keeps to the subset both run -- no dataclasses, enums, typing or f-string conversions, and
``struct``/``binascii`` used only in ways MicroPython's versions support.  It knows no port: the
link moves bytes, this module turns them into messages and back.

A frame on the wire is ``00 COBS(payload) 00``; the payload is::

    version u8 | type u8 | request id u16 | body ... | CRC-16/XMODEM u16 (of everything before it)

all big-endian.  The leading zero ends any garbage before the frame, so a frame that follows
garbage is never lost with it.
"""

try:
    import struct
except ImportError:  # pragma: no cover - MicroPython names it ustruct on old ports
    import ustruct as struct

PROTOCOL_VERSION = 1
MAX_PAYLOAD = 96          # bytes, before COBS; anything longer is garbage
# COBS adds one code byte per 254 data bytes begun: 96 payload bytes encode to 97 (between the zero
# delimiters), so a chunk of 98 or more bytes cannot be a frame.
MAX_ENCODED = MAX_PAYLOAD + 1
MAX_SHOWN = 8             # values a Show carries: 1..8
HEADER_LEN = 4
CRC_LEN = 2


# --- CRC-16/XMODEM (poly 0x1021, init 0) --------------------------------------------------------

def _make_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _make_table()


def crc16_table(data, crc=0):
    """CRC-16/XMODEM in plain Python: what the firmware uses where binascii lacks crc_hqx."""
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


try:
    from binascii import crc_hqx as _crc_hqx

    def crc16(data):
        """CRC-16/XMODEM of ``data`` (CPython's C implementation)."""
        return _crc_hqx(data, 0)
except ImportError:  # MicroPython's binascii has no crc_hqx
    def crc16(data):
        """CRC-16/XMODEM of ``data``."""
        return crc16_table(data, 0)


# --- COBS ---------------------------------------------------------------------------------------

def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: ``data`` without any zero byte, one byte longer per 254."""
    out = bytearray()
    code_at = 0
    out.append(0)
    code = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Undo :func:`cobs_encode`; raises ``ValueError`` on a block that runs past the end or a zero."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("zero byte inside a COBS frame")
        end = i + code
        if end > n:
            raise ValueError("COBS block runs past the end of the frame")
        for j in range(i + 1, end):
            if data[j] == 0:
                raise ValueError("zero byte inside a COBS frame")
        out.extend(data[i + 1:end])
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


# --- Messages -----------------------------------------------------------------------------------

# Roll states (RollState.state, Heartbeat.state).
IDLE = 0
HANDLING = 1
ROLLING = 2
SETTLED = 3
CROOKED = 4
STATE_NAMES = ("idle", "handling", "rolling", "settled", "crooked")

# Capability bits (Identify.caps).
CAP_AUTO_ROLL = 0x01   # can roll by itself (motor/shaker): RollRequest works
CAP_DISPLAY = 0x02     # has a display: Show works
CAP_COLOUR_LED = 0x04  # can light a player's colour
CAP_DIE_COLOURS = 0x08 # knows which die is which colour

# Die colours (RollResult.colours): 0 = only a slot number is known.
DIE_COLOURS = ("slot", "red", "yellow", "white", "black", "green", "blue", "orange")

# Error codes (Error.code).
ERR_BAD_REQUEST = 1    # a host message the box does not understand
ERR_NOT_SUPPORTED = 2  # understood, but this box cannot (e.g. RollRequest without a motor)
ERR_QUEUE_FULL = 3     # results waiting for acks fill the queue; rolls are refused until acked
ERR_SENSOR = 4         # the motion sensor or a die reader failed
ERR_BUSY = 5           # a roll is already in progress
ERR_VERSION = 6        # the host speaks another protocol version
ERROR_NAMES = {1: "bad request", 2: "not supported", 3: "queue full", 4: "sensor fault", 5: "busy",
               6: "protocol version"}

_REGISTRY = {}


class Message:
    """Base of every message: ``FIELDS`` name the body's fields, ``req`` is the request id.

    Request ids: the host numbers its requests 1..65535; the box copies the id onto its reply and
    sends 0 on everything it says unasked.
    """

    TYPE = 0
    FIELDS = ()

    def __init__(self, *args, **kwargs):
        if len(args) > len(self.FIELDS):
            raise TypeError("%s takes %d fields" % (type(self).__name__, len(self.FIELDS)))
        for name, value in zip(self.FIELDS, args):
            setattr(self, name, value)
        self.req = kwargs.pop("req", 0)
        for name in self.FIELDS[len(args):]:
            if name not in kwargs:
                raise TypeError("%s needs field %r" % (type(self).__name__, name))
            setattr(self, name, kwargs.pop(name))
        if kwargs:
            raise TypeError("%s has no field %r" % (type(self).__name__, list(kwargs)[0]))

    def field_values(self):
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other):
        return type(self) is type(other) and self.req == other.req and self.field_values() == other.field_values()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((type(self).__name__, self.req, self.field_values()))

    def __repr__(self):
        parts = ["%s=%r" % (name, getattr(self, name)) for name in self.FIELDS]
        if self.req:
            parts.append("req=%d" % self.req)
        return "%s(%s)" % (type(self).__name__, ", ".join(parts))

    # Subclasses: body bytes <-> field values.
    def body(self):
        return b""

    @classmethod
    def parse(cls, body, req):
        if body:
            raise ValueError("%s has no body, got %d bytes" % (cls.__name__, len(body)))
        return cls(req=req)


def _register(cls):
    _REGISTRY[cls.TYPE] = cls
    return cls


def _text(data, what):
    try:
        return bytes(data).decode("utf-8")
    except UnicodeError:
        raise ValueError("%s is not UTF-8" % what)


def _check_len(cls, body, expected):
    if len(body) != expected:
        raise ValueError("%s body must be %d bytes, got %d" % (cls.__name__, expected, len(body)))


def _u8(value, what):
    if not 0 <= value <= 0xFF:
        raise ValueError("%s must fit in a byte, got %r" % (what, value))
    return value


# Host -> box -------------------------------------------------------------------------------------

@_register
class IdentifyRequest(Message):
    """Host asks the box to say who it is (answered by :class:`Identify`)."""
    TYPE = 0x01


@_register
class Ack(Message):
    """Host has delivered result ``roll_id`` of boot ``boot_id``: the box stops resending it."""
    TYPE = 0x02
    FIELDS = ("boot_id", "roll_id")

    def body(self):
        return struct.pack(">II", self.boot_id, self.roll_id)

    @classmethod
    def parse(cls, body, req):
        _check_len(cls, body, 8)
        boot_id, roll_id = struct.unpack(">II", body)
        return cls(boot_id, roll_id, req=req)


@_register
class RollRequest(Message):
    """Host asks a box that can roll by itself to roll (answered by Done or Error)."""
    TYPE = 0x03


@_register
class Show(Message):
    """Host asks the box to show ``values`` (0 = blank digit) and light ``colour`` (r, g, b)."""
    TYPE = 0x04
    FIELDS = ("values", "colour")

    def body(self):
        values = tuple(self.values)
        for v in values:
            _u8(v, "shown value")
        if not 1 <= len(values) <= MAX_SHOWN:
            raise ValueError("Show takes 1..%d values, got %d" % (MAX_SHOWN, len(values)))
        r, g, b = self.colour
        return bytes([len(values)]) + bytes(values) + bytes([_u8(r, "red"), _u8(g, "green"), _u8(b, "blue")])

    @classmethod
    def parse(cls, body, req):
        if not body:
            raise ValueError("Show body is empty")
        n = body[0]
        if not 1 <= n <= MAX_SHOWN:
            raise ValueError("Show takes 1..%d values, got %d" % (MAX_SHOWN, n))
        _check_len(cls, body, 1 + n + 3)
        return cls(tuple(body[1:1 + n]), tuple(body[1 + n:]), req=req)


@_register
class Ping(Message):
    """Host checks the box is alive (answered by Pong with the same nonce)."""
    TYPE = 0x05
    FIELDS = ("nonce",)

    def body(self):
        return struct.pack(">I", self.nonce)

    @classmethod
    def parse(cls, body, req):
        _check_len(cls, body, 4)
        return cls(struct.unpack(">I", body)[0], req=req)


# Box -> host -------------------------------------------------------------------------------------

@_register
class Identify(Message):
    """Who the box is: sent at boot and in reply to IdentifyRequest.

    ``firmware`` is (major, minor, patch); ``boot_id`` is random per power-up, so results of a
    rebooted box never collide with the ones before; ``caps`` are CAP_* bits.
    """
    TYPE = 0x81
    FIELDS = ("model", "firmware", "boot_id", "dice", "caps")

    def body(self):
        model = self.model.encode("utf-8")
        if len(model) > 32:
            raise ValueError("model name longer than 32 bytes")
        major, minor, patch = self.firmware
        return (bytes([_u8(major, "major"), _u8(minor, "minor"), _u8(patch, "patch")])
                + struct.pack(">I", self.boot_id)
                + bytes([_u8(self.dice, "dice"), _u8(self.caps, "caps"), len(model)]) + model)

    @classmethod
    def parse(cls, body, req):
        if len(body) < 10:
            raise ValueError("Identify body must be at least 10 bytes, got %d" % len(body))
        _check_len(cls, body, 10 + body[9])
        boot_id = struct.unpack(">I", body[3:7])[0]
        return cls(_text(body[10:], "model"), (body[0], body[1], body[2]), boot_id, body[7], body[8],
                   req=req)


@_register
class RollState(Message):
    """The dice changed state (IDLE, HANDLING, ROLLING, SETTLED, CROOKED) during roll ``roll_id``."""
    TYPE = 0x82
    FIELDS = ("boot_id", "roll_id", "state")

    def body(self):
        return struct.pack(">IIB", self.boot_id, self.roll_id, self.state)

    @classmethod
    def parse(cls, body, req):
        _check_len(cls, body, 9)
        boot_id, roll_id, state = struct.unpack(">IIB", body)
        if state >= len(STATE_NAMES):
            raise ValueError("unknown roll state %d" % state)
        return cls(boot_id, roll_id, state, req=req)


@_register
class RollResult(Message):
    """A settled roll: faces per die (1..6) and each die's colour code, resent until acked.

    ``age_ms`` is how long ago the dice settled when this copy was sent, so a resent result still
    tells the host when the roll happened.
    """
    TYPE = 0x83
    FIELDS = ("boot_id", "roll_id", "faces", "colours", "age_ms")

    def body(self):
        faces = tuple(self.faces)
        colours = tuple(self.colours)
        if not 1 <= len(faces) <= 8 or len(colours) != len(faces):
            raise ValueError("RollResult needs 1..8 faces and one colour per face")
        for f in faces:
            if not 1 <= f <= 6:
                raise ValueError("die face must be 1..6, got %r" % (f,))
        return (struct.pack(">III", self.boot_id, self.roll_id, min(self.age_ms, 0xFFFFFFFF))
                + bytes([len(faces)]) + bytes(faces) + bytes([_u8(c, "colour") for c in colours]))

    @classmethod
    def parse(cls, body, req):
        if len(body) < 13:
            raise ValueError("RollResult body must be at least 13 bytes, got %d" % len(body))
        n = body[12]
        if not 1 <= n <= 8:
            raise ValueError("RollResult with %d dice" % n)
        _check_len(cls, body, 13 + 2 * n)
        boot_id, roll_id, age_ms = struct.unpack(">III", body[:12])
        faces = tuple(body[13:13 + n])
        for f in faces:
            if not 1 <= f <= 6:
                raise ValueError("die face %d out of 1..6" % f)
        return cls(boot_id, roll_id, faces, tuple(body[13 + n:]), age_ms, req=req)


@_register
class Heartbeat(Message):
    """Sent every second: the box is alive, how long it has been up, how many results await acks."""
    TYPE = 0x84
    FIELDS = ("boot_id", "uptime_ms", "pending", "state")

    def body(self):
        return struct.pack(">IIBB", self.boot_id, self.uptime_ms & 0xFFFFFFFF, self.pending, self.state)

    @classmethod
    def parse(cls, body, req):
        _check_len(cls, body, 10)
        boot_id, uptime_ms, pending, state = struct.unpack(">IIBB", body)
        return cls(boot_id, uptime_ms, pending, state, req=req)


@_register
class Error(Message):
    """Something went wrong on the box: an ERR_* code and a short text (``req`` if it answers one)."""
    TYPE = 0x85
    FIELDS = ("code", "text")

    def body(self):
        text = self.text.encode("utf-8")[:60]
        return bytes([_u8(self.code, "error code"), len(text)]) + text

    @classmethod
    def parse(cls, body, req):
        if len(body) < 2:
            raise ValueError("Error body must be at least 2 bytes, got %d" % len(body))
        _check_len(cls, body, 2 + body[1])
        return cls(body[0], _text(body[2:], "error text"), req=req)


@_register
class Pong(Ping):
    """Answer to Ping: the same body (its nonce), another type (never equal to a Ping)."""
    TYPE = 0x86


@_register
class Done(Message):
    """The request ``req`` (RollRequest, Show) was carried out."""
    TYPE = 0x87


MESSAGE_TYPES = _REGISTRY


# --- Frames -------------------------------------------------------------------------------------

def payload(message):
    """The unframed payload of ``message``: header, body, CRC."""
    if not 0 <= message.req <= 0xFFFF:
        raise ValueError("request id must be 0..65535, got %r" % (message.req,))
    data = bytes([PROTOCOL_VERSION, message.TYPE]) + struct.pack(">H", message.req) + message.body()
    if len(data) + CRC_LEN > MAX_PAYLOAD:
        raise ValueError("%s is too long for one frame" % type(message).__name__)
    return data + struct.pack(">H", crc16(data))


def encode(message):
    """``message`` as the bytes to write on the wire: ``00 COBS(payload) 00``."""
    return b"\x00" + cobs_encode(payload(message)) + b"\x00"


class FrameError(ValueError):
    """A frame that cannot be a message; ``kind`` is one of the Decoder.stats keys.

    ``req`` is the frame's request id where the frame came through whole (its CRC right) but is not
    a message this side understands (kinds ``version``, ``type``, ``body``): the box copies it onto
    its Error reply.  0 for a damaged frame, which is dropped unanswered."""

    def __init__(self, kind, text, req=0):
        super().__init__(text)
        self.kind = kind
        self.text = text
        self.req = req


def parse_payload(data):
    """The message in an unframed payload; raises FrameError saying what is wrong with it."""
    if len(data) < HEADER_LEN + CRC_LEN:
        raise FrameError("short", "frame of %d bytes is shorter than a header and CRC" % len(data))
    got = (data[-2] << 8) | data[-1]
    want = crc16(data[:-2])
    if got != want:
        raise FrameError("crc", "CRC mismatch: frame says %04x, bytes give %04x" % (got, want))
    req = (data[2] << 8) | data[3]
    if data[0] != PROTOCOL_VERSION:
        raise FrameError("version", "protocol version %d, this side speaks %d" % (data[0], PROTOCOL_VERSION),
                         req)
    cls = _REGISTRY.get(data[1])
    if cls is None:
        raise FrameError("type", "unknown message type 0x%02x" % data[1], req)
    try:
        return cls.parse(bytes(data[HEADER_LEN:-CRC_LEN]), req)
    except ValueError as error:
        raise FrameError("body", "%s: %s" % (cls.__name__, error), req)


class Decoder:
    """Turns a byte stream into messages, dropping whatever is not a good frame.

    ``feed(data)`` returns the messages completed by ``data``.  Bad frames are counted in
    ``stats`` by kind (``cobs``, ``short``, ``crc``, ``version``, ``type``, ``body``,
    ``overlong``) and the last one's reason kept in ``last_error``; ``on_error(FrameError)``,
    when given, hears each.  A chunk longer than any frame is dropped up to the next zero, so
    garbage without zeros cannot grow the buffer.
    """

    def __init__(self, on_error=None):
        self._buf = bytearray()
        self._skipping = False
        self.on_error = on_error
        self.stats = {"frames": 0, "cobs": 0, "short": 0, "crc": 0, "version": 0, "type": 0,
                      "body": 0, "overlong": 0}
        self.last_error = None

    def _error(self, error):
        self.stats[error.kind] += 1
        self.last_error = error
        if self.on_error is not None:
            self.on_error(error)

    def feed(self, data):
        out = []
        data = bytes(data)
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                end = n
            chunk = data[start:end]
            if not self._skipping:
                self._buf.extend(chunk)
                if len(self._buf) > MAX_ENCODED:
                    self._error(FrameError("overlong", "more than %d bytes without a frame delimiter"
                                           % MAX_ENCODED))
                    self._buf = bytearray()
                    self._skipping = True
            if end == n:
                break
            # A delimiter: the buffered chunk is complete.
            if self._skipping:
                self._skipping = False
            elif self._buf:
                message = self._frame(self._buf)
                if message is not None:
                    out.append(message)
            self._buf = bytearray()
            start = end + 1
        return out

    def _frame(self, encoded):
        try:
            try:
                data = cobs_decode(encoded)
            except ValueError as error:
                raise FrameError("cobs", "bad COBS: %s" % error)
            message = parse_payload(data)
        except FrameError as error:
            self._error(error)
            return None
        self.stats["frames"] += 1
        return message
