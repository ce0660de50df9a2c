#!/usr/bin/env python3
"""An independent reader of ISO/IEC 19794-7:2014 full-format signature time series (version "020").

Written from the published field table only (docs/RECORDS.md, "ISO/IEC 19794-7:2014", which names each field's
public source); it shares no code with the Swift reader in Sources/SignatureInterchange, so a fault in how that
code understood the format cannot hide here too. Only the Python standard library.

    read_record(data: bytes) -> dict    raises FormatError naming the field

Layout (all integers big-endian):
    general header      "SDI\\0", "020\\0", record length u32, representations u16, certification flag u8
    representation      length u32 (counting itself), capture time (year u16, month, day, hour, minute, second u8,
                        millisecond u16), device technology u8, vendor id u16, type id u16, quality block count u8
                        and 5 bytes per block, channel inclusion u16 (bit 15 X ... bit 0 R), one description per
                        included channel, sample count u24, the samples, extended data length u16 and its bytes
    description         preamble u8: 0x80 scaling, 0x40 minimum, 0x20 maximum, 0x10 mean, 0x08 standard deviation
                        (u16 each, in that order), 0x04 constant (the channel has no value in the samples)
    sample              each included, non-constant channel in inclusion order: S one byte, every other two;
                        X Y VX VY AX AY TX TY stored as value + 32768, the rest unsigned
"""
import struct

CHANNELS = ["X", "Y", "Z", "VX", "VY", "AX", "AY", "T", "DT", "F", "S", "TX", "TY", "A", "E", "R"]
SIGNED = {"X", "Y", "VX", "VY", "AX", "AY", "TX", "TY"}


class FormatError(Exception):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


class _Cursor:
    def __init__(self, data, offset, end):
        self.data, self.offset, self.end = data, offset, end

    def take(self, n, field):
        if self.offset + n > self.end:
            raise FormatError(field, f"needs {n} bytes at offset {self.offset}, {self.end - self.offset} left")
        chunk = self.data[self.offset:self.offset + n]
        self.offset += n
        return chunk

    def uint(self, n, field):
        return int.from_bytes(self.take(n, field), "big")


def scaling_value(stored):
    """Scaling: 5-bit exponent stored with a bias of 16, 11-bit fraction: 2^(e-16) * (1 + f/2048)."""
    return 2.0 ** ((stored >> 11) - 16) * (1 + (stored & 0x7FF) / 2048)


def read_record(data):
    c = _Cursor(data, 0, len(data))
    if c.take(4, "format identifier") != b"SDI\x00":
        raise FormatError("format identifier", "not SDI")
    if c.take(4, "version") != b"020\x00":
        raise FormatError("version", "not 020 (the 2014 edition)")
    length = c.uint(4, "record length")
    if length != len(data):
        raise FormatError("record length", f"{length} but the data has {len(data)} bytes")
    count = c.uint(2, "number of representations")
    if count != 1:
        raise FormatError("number of representations", f"{count}; this reader expects one")
    record = {"certification": c.uint(1, "certification flag")}
    start = c.offset
    rep_length = c.uint(4, "representation length")
    if start + rep_length != len(data):
        raise FormatError("representation length", f"{rep_length} does not end at the record's end")
    c.end = start + rep_length
    year, month, day, hour, minute, second, milli = struct.unpack(">HBBBBBH", c.take(9, "capture date and time"))
    record["captured"] = (year, month, day, hour, minute, second, milli)
    record["technology"] = c.uint(1, "device technology")
    record["vendor"] = c.uint(2, "vendor id")
    record["type"] = c.uint(2, "type id")
    quality = c.uint(1, "quality block count")
    c.take(5 * quality, "quality blocks")
    inclusion = c.uint(2, "channel inclusion")
    included = [name for bit, name in enumerate(CHANNELS) if inclusion & (0x8000 >> bit)]
    if not included:
        raise FormatError("channel inclusion", "no channel")
    descriptions = {}
    for name in included:
        preamble = c.uint(1, f"{name} description")
        d = {"constant": bool(preamble & 0x04)}
        for bit, key in ((0x80, "scaling"), (0x40, "minimum"), (0x20, "maximum"), (0x10, "mean"), (0x08, "std")):
            if preamble & bit:
                raw = c.uint(2, f"{name} {key}")
                if key == "scaling":
                    d[key] = scaling_value(raw)
                elif key in ("minimum", "maximum", "mean"):
                    d[key] = raw - 32768 if name in SIGNED else raw
                else:
                    d[key] = raw
        descriptions[name] = d
    n = c.uint(3, "number of sample points")
    sampled = [name for name in included if not descriptions[name]["constant"]]
    samples = []
    for index in range(n):
        sample = {}
        for name in sampled:
            raw = c.uint(1 if name == "S" else 2, f"sample {index} channel {name}")
            sample[name] = raw - 32768 if name in SIGNED else raw
        samples.append(sample)
    extended_length = c.uint(2, "extended data length")
    record["extended"] = c.take(extended_length, "extended data")
    if c.offset != c.end:
        raise FormatError("representation length", f"{c.end - c.offset} bytes follow the extended data")
    record.update(channels=included, descriptions=descriptions, samples=samples)
    return record
