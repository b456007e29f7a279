"""The dice-box codec: golden vectors (also in docs/dice-box-protocol.md) and fuzzing of the decoder."""

import binascii

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from firmware_bridge import codec
from firmware_bridge.codec import (Ack, Decoder, Done, Error, FrameError, Identify, IdentifyRequest, Ping,
                                   Pong, RollRequest, RollResult, RollState, Show, Heartbeat)

BOOT = 0x1A2B3C4D

# (message, its bytes on the wire) -- the table in docs/dice-box-protocol.md.
GOLDEN = [
    (IdentifyRequest(req=1), "00 03 01 01 04 01 51 a5 00"),
    (Ack(BOOT, 7), "00 03 01 02 01 05 1a 2b 3c 4d 01 01 04 07 4e 4d 00"),
    (RollRequest(req=2), "00 03 01 03 04 02 0f a6 00"),
    (Show((3, 4), (255, 0, 0), req=3), "00 03 01 04 06 03 02 03 04 ff 01 03 4b 28 00"),
    (Ping(0xCAFE, req=4), "00 03 01 05 02 04 01 05 ca fe 40 3c 00"),
    (Identify("DiceBox-2040", (1, 0, 0), BOOT, 2, 0x0F, req=1),
     "00 03 01 81 03 01 01 01 16 1a 2b 3c 4d 02 0f 0c 44 69 63 65 42 6f 78 2d 32 30 34 30 57 65 00"),
    (RollState(BOOT, 7, codec.ROLLING), "00 03 01 82 01 05 1a 2b 3c 4d 01 01 05 07 02 6e e9 00"),
    (RollResult(BOOT, 7, (3, 4), (1, 2), 12),
     "00 03 01 83 01 05 1a 2b 3c 4d 01 01 02 07 01 01 09 0c 02 03 04 01 02 c8 5d 00"),
    (RollResult(BOOT, 8, (6, 6), (0, 0), 0),
     "00 03 01 83 01 05 1a 2b 3c 4d 01 01 02 08 01 01 01 04 02 06 06 01 03 54 59 00"),
    (Heartbeat(BOOT, 60000, 1, codec.IDLE), "00 03 01 84 01 05 1a 2b 3c 4d 01 04 ea 60 01 03 4c ea 00"),
    (Error(codec.ERR_QUEUE_FULL, "16 results await acks"),
     "00 03 01 85 01 1a 03 15 31 36 20 72 65 73 75 6c 74 73 20 61 77 61 69 74 20 61 63 6b 73 a6 c2 00"),
    (Error(codec.ERR_BAD_REQUEST, "unknown message type 0x09", req=5),
     "00 03 01 85 1f 05 01 19 75 6e 6b 6e 6f 77 6e 20 6d 65 73 73 61 67 65 20 74 79 70 65 20 30 78 30 39 bc 17 00"),
    (Pong(0xCAFE, req=4), "00 03 01 86 02 04 01 05 ca fe 33 47 00"),
    (Done(req=3), "00 03 01 87 04 03 f8 1d 00"),
]


@pytest.mark.parametrize("message, wire", GOLDEN, ids=[type(m).__name__ for m, _ in GOLDEN])
def test_golden_vectors(message, wire):
    data = bytes.fromhex(wire)
    assert codec.encode(message) == data
    assert Decoder().feed(data) == [message]


def test_crc_is_crc16_xmodem_in_both_implementations():
    assert codec.crc16(b"123456789") == 0x31C3           # the catalogue check value of CRC-16/XMODEM
    assert codec.crc16_table(b"123456789") == 0x31C3     # the firmware's pure-Python one agrees


@given(st.binary(max_size=300))
def test_table_crc_matches_binascii(data):
    assert codec.crc16_table(data) == binascii.crc_hqx(data, 0)


@given(st.binary(max_size=600))
def test_cobs_round_trip_has_no_zero(data):
    encoded = codec.cobs_encode(data)
    assert 0 not in encoded
    assert codec.cobs_decode(encoded) == data


@pytest.mark.parametrize("payload, reason", [
    (bytes.fromhex("01 01 00 01"), "short"),
    (bytes.fromhex("02 01 00 01") + b"\x00\x00", "crc"),
])
def test_bad_frames_are_named(payload, reason):
    errors = []
    decoder = Decoder(on_error=errors.append)
    assert decoder.feed(b"\x00" + codec.cobs_encode(payload) + b"\x00") == []
    assert errors[0].kind == reason and decoder.stats[reason] == 1


def frame_of(version, kind, body):
    data = bytes([version, kind, 0, 0]) + body
    return b"\x00" + codec.cobs_encode(data + codec.crc16(data).to_bytes(2, "big")) + b"\x00"


@pytest.mark.parametrize("wire, kind, words", [
    (frame_of(2, 0x84, bytes(10)), "version", "protocol version 2"),
    (frame_of(1, 0x42, b""), "type", "unknown message type 0x42"),
    (frame_of(1, 0x83, bytes.fromhex("1a2b3c4d 00000001 00000000 02 07 01 00 00")), "body", "face 7"),
    (frame_of(1, 0x84, bytes(9)), "body", "must be 10 bytes, got 9"),
    (b"\x00\x05\x01\x02\x00", "cobs", "runs past the end"),
])
def test_well_formed_frames_with_bad_contents_are_refused_with_a_reason(wire, kind, words):
    errors = []
    assert Decoder(on_error=errors.append).feed(wire) == []
    assert errors[0].kind == kind and words in errors[0].text


def test_encoding_refuses_impossible_messages():
    with pytest.raises(ValueError, match="1..6"):
        codec.encode(RollResult(BOOT, 1, (0, 7), (0, 0), 0))
    with pytest.raises(ValueError, match="request id"):
        codec.encode(Ping(1, req=70000))


# --- fuzzing ------------------------------------------------------------------------------------

u32 = st.integers(0, 0xFFFFFFFF)
req = st.integers(0, 0xFFFF)
faces = st.integers(1, 8).flatmap(lambda n: st.tuples(st.lists(st.integers(1, 6), min_size=n, max_size=n),
                                                      st.lists(st.integers(0, 7), min_size=n, max_size=n)))
messages = st.one_of(
    st.builds(lambda r: IdentifyRequest(req=r), req),
    st.builds(lambda b, i, r: Ack(b, i, req=r), u32, u32, req),
    st.builds(lambda r: RollRequest(req=r), req),
    st.builds(lambda v, c, r: Show(tuple(v), c, req=r), st.lists(st.integers(0, 255), min_size=1, max_size=8),
              st.tuples(*[st.integers(0, 255)] * 3), req),
    st.builds(lambda n, r: Ping(n, req=r), u32, req),
    st.builds(lambda m, f, b, d, c, r: Identify(m, f, b, d, c, req=r), st.text(max_size=10),
              st.tuples(*[st.integers(0, 255)] * 3), u32, st.integers(0, 255), st.integers(0, 255), req),
    st.builds(lambda b, i, s: RollState(b, i, s), u32, u32, st.integers(0, 4)),
    st.builds(lambda b, i, fc, a: RollResult(b, i, tuple(fc[0]), tuple(fc[1]), a), u32, u32, faces, u32),
    st.builds(lambda b, u, p, s: Heartbeat(b, u, p, s), u32, u32, st.integers(0, 255), st.integers(0, 4)),
    st.builds(lambda c, t, r: Error(c, t, req=r), st.integers(0, 255), st.text(max_size=15), req),
    st.builds(lambda n, r: Pong(n, req=r), u32, req),
    st.builds(lambda r: Done(req=r), req),
)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def feed_in_pieces(decoder, data, cuts):
    out, start = [], 0
    for cut in sorted(c % (len(data) + 1) for c in cuts) + [len(data)]:
        out += decoder.feed(data[start:cut])
        start = max(start, cut)
    return out


@FUZZ
@given(st.lists(messages, min_size=1, max_size=8), st.lists(st.integers(0, 10_000), max_size=10))
def test_any_messages_round_trip_however_the_bytes_arrive(sent, cuts):
    wire = b"".join(codec.encode(m) for m in sent)
    assert feed_in_pieces(Decoder(), wire, cuts) == sent


@FUZZ
@given(st.binary(max_size=2000), st.lists(st.integers(0, 10_000), max_size=10))
def test_random_bytes_never_raise_and_never_grow_the_buffer(noise, cuts):
    decoder = Decoder()
    out = feed_in_pieces(decoder, noise, cuts)
    assert all(isinstance(m, codec.Message) for m in out)
    assert len(decoder._buf) <= codec.MAX_ENCODED


@FUZZ
@given(st.binary(min_size=1, max_size=500), st.lists(messages, min_size=1, max_size=5))
def test_resync_after_garbage_loses_no_frame(garbage, sent):
    # The leading zero of the first frame ends the garbage: that frame already decodes.
    decoder = Decoder()
    assert decoder.feed(garbage + b"".join(codec.encode(m) for m in sent))[-len(sent):] == sent


@FUZZ
@given(messages, st.data())
def test_bit_errors_in_a_frame_are_never_accepted(message, data):
    # CRC-16/XMODEM has Hamming distance 4 at these lengths and catches every burst up to 16 bits.
    payload = bytearray(codec.payload(message))
    nbits = len(payload) * 8
    if data.draw(st.booleans(), label="burst"):
        start = data.draw(st.integers(0, nbits - 1))
        flips = {start} | {b for b in data.draw(st.sets(st.integers(start, min(nbits, start + 16) - 1)))}
    else:
        flips = data.draw(st.sets(st.integers(0, nbits - 1), min_size=1, max_size=3))
    for bit in flips:
        payload[bit // 8] ^= 0x80 >> (bit % 8)
    with pytest.raises(FrameError, match="CRC mismatch"):
        codec.parse_payload(bytes(payload))
    assert Decoder().feed(b"\x00" + codec.cobs_encode(bytes(payload)) + b"\x00") == []


@FUZZ
@given(st.lists(messages, min_size=1, max_size=6), st.data())
def test_mutated_streams_yield_only_messages_that_were_sent_in_order(sent, data):
    wire = bytearray(b"".join(codec.encode(m) for m in sent))
    for _ in range(data.draw(st.integers(1, 4), label="mutations")):
        at = data.draw(st.integers(0, len(wire) - 1))
        how = data.draw(st.sampled_from(["flip", "replace", "insert", "delete"]))
        if how == "flip":
            wire[at] ^= 1 << data.draw(st.integers(0, 7))
        elif how == "replace":
            wire[at] = data.draw(st.integers(0, 255))
        elif how == "insert":
            wire[at:at] = data.draw(st.binary(min_size=1, max_size=8))
        elif len(wire) > 1:
            del wire[at]
    got = Decoder().feed(bytes(wire))
    remaining = iter(sent)   # every decoded message is one that was sent, and in the order sent
    assert all(any(m == s for s in remaining) for m in got)


def test_the_protocol_document_lists_the_same_golden_vectors():
    import pathlib
    import re
    doc = (pathlib.Path(__file__).parent.parent / "docs" / "dice-box-protocol.md").read_text()
    table = doc.split("## Golden vectors", 1)[1].split("\n## ", 1)[0]
    wires = re.findall(r"\| `((?:[0-9a-f]{2} ?)+)` \|", table)
    assert [bytes.fromhex(w) for w in wires] == [bytes.fromhex(w) for _, w in GOLDEN]


def test_the_chunk_limit_is_the_longest_frame_cobs_can_make():
    # COBS adds one byte per 254 begun: the longest payload, 96 bytes, is 97 between the delimiters
    longest = bytes(range(1, 97))
    assert len(codec.cobs_encode(longest)) == len(codec.cobs_encode(bytes(96))) == codec.MAX_ENCODED == 97
    message = Error(codec.ERR_BAD_REQUEST, "x" * 60, req=1)  # within a byte or so of the longest message
    assert len(codec.encode(message)) - 2 <= codec.MAX_ENCODED
    decoder = Decoder()
    assert decoder.feed(b"\x00" + b"\x01" * 98 + b"\x00" + codec.encode(message)) == [message]
    assert decoder.stats["overlong"] == 1


@pytest.mark.parametrize("values", [0, 9, 20])
def test_a_show_of_no_values_or_more_than_eight_is_not_a_message(values):
    data = bytes([1, 0x04, 0, 6, values] + [1] * values + [0, 0, 0])
    with pytest.raises(codec.FrameError) as refused:
        codec.parse_payload(data + codec.crc16(data).to_bytes(2, "big"))
    assert refused.value.kind == "body" and refused.value.req == 6
    with pytest.raises(ValueError):
        codec.encode(Show((1,) * values, (0, 0, 0)))
