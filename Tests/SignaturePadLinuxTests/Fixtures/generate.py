#!/usr/bin/env python3
"""Generates the umockdev fixtures of the signature pad tests: <device>/device.umockdev, device.ioctl, *.evemu.

Each device is described as data (name, ids, udev properties, key codes, absinfo), like libinput's litest devices.
The .ioctl file answers the EVIOCG* queries libevdev issues when it opens a node (without it libevdev_new_from_fd
fails with ENOENT under umockdev). Payload sizes must equal what libevdev asks for: EVIOCGNAME/PHYS/UNIQ 255 bytes,
EVIOCGBIT(EV_KEY) 96, EVIOCGKEY 96, EVIOCGBIT(EV_FF) 16, the other bitmasks 8.

Event timestamps are written as <sec>.<6 digits> with a non-zero first digit: umockdev 0.17 reads the microseconds
with base auto-detection, so a leading zero would turn them octal.

Run it from anywhere; it rewrites the fixtures next to itself. The generated files are committed.
"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT, SYN_DROPPED = 0, 3
BTN_LEFT, BTN_RIGHT = 0x110, 0x111
BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOUCH, BTN_STYLUS = 0x140, 0x141, 0x14A, 0x14B
KEY_A, KEY_ESC = 30, 1
ABS_X, ABS_Y, ABS_PRESSURE, ABS_TILT_X, ABS_TILT_Y = 0x00, 0x01, 0x18, 0x1A, 0x1B
ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x2F, 0x35, 0x36, 0x39
INPUT_PROP_POINTER, INPUT_PROP_DIRECT = 0, 1


def bits(codes, size):
    out = bytearray(size)
    for c in codes:
        out[c // 8] |= 1 << (c % 8)
    return bytes(out)


def name_bytes(s):
    b = s.encode() + b"\0"
    return b + bytes(255 - len(b))


DEVICES = {
    # A pen display with pressure and tilt: a dedicated signing device (tablet, not a touch screen).
    "pen-tablet": dict(
        event="event10", input="input30", name="Wacom One Pen Display Pen", bus=3, vendor=0x056A, product=0x03A6,
        parent="/devices/pci0000:00/0000:00:14.0/usb1/1-3/1-3:1.0/0003:056A:03A6.0003/input",
        props=dict(ID_INPUT_TABLET="1"), input_props=[INPUT_PROP_DIRECT],
        keys=[BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOUCH, BTN_STYLUS],
        abs={ABS_X: (0, 21600, 100), ABS_Y: (0, 13500, 100), ABS_PRESSURE: (0, 4095, 0),
             ABS_TILT_X: (-64, 63, 57), ABS_TILT_Y: (-64, 63, 57)}),
    # The same pen display plugged back in: same identity, new input and event numbers (as the kernel assigns).
    "pen-tablet-replugged": dict(
        event="event12", input="input32", name="Wacom One Pen Display Pen", bus=3, vendor=0x056A, product=0x03A6,
        parent="/devices/pci0000:00/0000:00:14.0/usb1/1-3/1-3:1.0/0003:056A:03A6.0005/input",
        props=dict(ID_INPUT_TABLET="1"), input_props=[INPUT_PROP_DIRECT],
        keys=[BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOUCH, BTN_STYLUS],
        abs={ABS_X: (0, 21600, 100), ABS_Y: (0, 13500, 100), ABS_PRESSURE: (0, 4095, 0),
             ABS_TILT_X: (-64, 63, 57), ABS_TILT_Y: (-64, 63, 57)}),
    # A dedicated signature pad that our udev rule tags.
    "sigpad": dict(
        event="event11", input="input31", name="Consent Kiosk Test Signature Pad", bus=3, vendor=0x056A,
        product=0x00A8,
        parent="/devices/pci0000:00/0000:00:14.0/usb1/1-4/1-4:1.0/0003:056A:00A8.0004/input",
        props=dict(ID_INPUT_TABLET="1", CONSENT_KIOSK_PAD="1"), input_props=[INPUT_PROP_DIRECT, INPUT_PROP_POINTER],
        keys=[BTN_TOOL_PEN, BTN_TOUCH], abs={ABS_X: (0, 9599, 40), ABS_Y: (0, 5999, 40), ABS_PRESSURE: (0, 1023, 0)}),
    # The kiosk's own single-touch screen.
    "touchscreen": dict(
        event="event5", input="input15", name="Test Single Touch Screen", bus=3, vendor=0x0EEF, product=0x0001,
        parent="/devices/pci0000:00/0000:00:14.0/usb1/1-5/1-5:1.0/0003:0EEF:0001.0005/input",
        props=dict(ID_INPUT_TOUCHSCREEN="1"), input_props=[INPUT_PROP_DIRECT],
        keys=[BTN_TOUCH], abs={ABS_X: (0, 4095, 16), ABS_Y: (0, 4095, 16)}),
    # A multitouch screen (MT protocol B, 10 slots).
    "mt-touchscreen": dict(
        event="event6", input="input16", name="Test Multitouch Screen", bus=3, vendor=0x222A, product=0x0001,
        parent="/devices/pci0000:00/0000:00:14.0/usb1/1-6/1-6:1.0/0003:222A:0001.0006/input",
        props=dict(ID_INPUT_TOUCHSCREEN="1"), input_props=[INPUT_PROP_DIRECT],
        keys=[BTN_TOUCH],
        abs={ABS_X: (0, 1919, 10), ABS_Y: (0, 1079, 10), ABS_MT_SLOT: (0, 9, 0),
             ABS_MT_POSITION_X: (0, 1919, 10), ABS_MT_POSITION_Y: (0, 1079, 10), ABS_MT_TRACKING_ID: (0, 65535, 0)}),
    # A touch screen whose firmware reports no resolution: no physical size.
    "no-resolution": dict(
        event="event7", input="input17", name="Generic Touch No Resolution", bus=3, vendor=0x1234, product=0x5678,
        parent="/devices/pci0000:00/0000:00:14.0/usb1/1-7/1-7:1.0/0003:1234:5678.0007/input",
        props=dict(ID_INPUT_TOUCHSCREEN="1"), input_props=[INPUT_PROP_DIRECT],
        keys=[BTN_TOUCH], abs={ABS_X: (0, 1023, 0), ABS_Y: (0, 767, 0)}),
    # Classified as a touch screen but with no axes at all: must be listed as unusable, never chosen.
    "no-axes": dict(
        event="event8", input="input18", name="Broken Touch No Axes", bus=3, vendor=0x1234, product=0x0000,
        parent="/devices/pci0000:00/0000:00:14.0/usb1/1-8/1-8:1.0/0003:1234:0000.0008/input",
        props=dict(ID_INPUT_TOUCHSCREEN="1"), input_props=[], keys=[BTN_TOUCH], abs={}),
    # Decoys: must never be chosen.
    "keyboard": dict(
        event="event3", input="input3", name="AT Translated Set 2 keyboard", bus=0x11, vendor=0x0001, product=0x0001,
        parent="/devices/platform/i8042/serio0/input",
        props=dict(ID_INPUT_KEYBOARD="1", ID_INPUT_KEY="1"), input_props=[], keys=[KEY_ESC, KEY_A], abs={}),
    "mouse": dict(
        event="event4", input="input4", name="Test USB Optical Mouse", bus=3, vendor=0x046D, product=0xC077,
        parent="/devices/pci0000:00/0000:00:14.0/usb1/1-9/1-9:1.0/0003:046D:C077.0009/input",
        props=dict(ID_INPUT_MOUSE="1"), input_props=[], keys=[BTN_LEFT, BTN_RIGHT], abs={}),
}


def umockdev_text(d):
    minor = int(d["event"][5:])
    ev_path = f"{d['parent']}/{d['input']}/{d['event']}"
    in_path = f"{d['parent']}/{d['input']}"
    lines = [f"P: {ev_path}", f"N: input/{d['event']}", f"E: DEVNAME=/dev/input/{d['event']}", "E: ID_INPUT=1"]
    lines += [f"E: {k}={v}" for k, v in sorted(d["props"].items())]
    lines += [f"E: MAJOR=13", f"E: MINOR={64 + minor}", "E: SUBSYSTEM=input", f"A: dev=13:{64 + minor}", ""]
    lines += [f"P: {in_path}", "E: ID_INPUT=1"]
    lines += [f"E: {k}={v}" for k, v in sorted(d["props"].items())]
    lines += [f'E: NAME="{d["name"]}"',
              f"E: PRODUCT={d['bus']:x}/{d['vendor']:x}/{d['product']:x}/110",
              "E: SUBSYSTEM=input", f"A: name={d['name']}", ""]
    return "\n".join(lines)


def ioctl_text(d):
    ev_types = [EV_SYN, EV_KEY] + ([EV_ABS] if d["abs"] else [])
    out = [f"@DEV /dev/input/{d['event']}"]
    out.append(f"EVIOCGBIT(0) 8 {bits(ev_types, 8).hex().upper()}")
    out.append(f"EVIOCGNAME(0) {len(d['name']) + 1} {name_bytes(d['name']).hex().upper()}")
    out.append(f"EVIOCGPHYS(0) 1 {name_bytes('').hex().upper()}")
    out.append(f"EVIOCGUNIQ(0) 1 {name_bytes('').hex().upper()}")
    out.append("EVIOCGID 0 " + struct.pack("<HHHH", d["bus"], d["vendor"], d["product"], 0x110).hex().upper())
    out.append("EVIOCGVERSION 0 01000100")
    out.append(f"EVIOCGPROP(0) 8 {bits(d['input_props'], 8).hex().upper()}")
    out.append(f"EVIOCGBIT(1) 96 {bits(d['keys'], 96).hex().upper()}")
    for t in (2, 4, 5, 17, 18):
        out.append(f"EVIOCGBIT({t}) 8 {bytes(8).hex().upper()}")
    out.append(f"EVIOCGBIT(3) 8 {bits(d['abs'].keys(), 8).hex().upper()}")
    out.append(f"EVIOCGBIT(21) 16 {bytes(16).hex().upper()}")
    out.append(f"EVIOCGKEY(0) 96 {bytes(96).hex().upper()}")
    out.append(f"EVIOCGLED(0) 8 {bytes(8).hex().upper()}")
    out.append(f"EVIOCGSW(0) 8 {bytes(8).hex().upper()}")
    for code, (lo, hi, res) in sorted(d["abs"].items()):
        value = -1 if code == ABS_MT_TRACKING_ID else 0
        name = "EVIOCGABS" if code == 0 else f"EVIOCGABS({code})"
        out.append(f"{name} 0 " + struct.pack("<6i", value if code != ABS_MT_TRACKING_ID else 0, lo, hi, 0, 0, res).hex().upper())
    return "\n".join(out) + "\n"


# MARK: scenarios. Each frame: (list of (type, code, value)); frames are 10 ms apart from 10.100000.

def pen(x=None, y=None, p=None, touch=None, tool=None, tilt=None):
    ev = []
    if tool is not None: ev.append((EV_KEY, BTN_TOOL_PEN, tool))
    if touch is not None: ev.append((EV_KEY, BTN_TOUCH, touch))
    if x is not None: ev.append((EV_ABS, ABS_X, x))
    if y is not None: ev.append((EV_ABS, ABS_Y, y))
    if p is not None: ev.append((EV_ABS, ABS_PRESSURE, p))
    if tilt is not None: ev += [(EV_ABS, ABS_TILT_X, tilt[0]), (EV_ABS, ABS_TILT_Y, tilt[1])]
    return ev


def mt(*slots, touch=None):
    ev = []
    for s in slots:
        ev.append((EV_ABS, ABS_MT_SLOT, s[0]))
        for code, v in s[1:]:
            ev.append((EV_ABS, code, v))
    if touch is not None: ev.append((EV_KEY, BTN_TOUCH, touch))
    return ev


TID, MX, MY = ABS_MT_TRACKING_ID, ABS_MT_POSITION_X, ABS_MT_POSITION_Y
DROPPED = [(EV_SYN, SYN_DROPPED, 0)]

SCENARIOS = {
    ("pen-tablet", "sign"): [
        pen(tool=1, x=1000, y=2000, p=0, tilt=(5, -3)),        # hover: no ink
        pen(touch=1, x=1010, p=100),                           # touching, below the 5 % threshold (205): no ink
        pen(x=1100, y=2050, p=300),                            # tip down: stroke 1 starts
        pen(x=1200, y=2100, p=500),
        pen(x=1300, y=2150, p=150),                            # above the 1 % release threshold (41): still down
        pen(x=1400, p=30),                                     # below it: stroke 1 ends
        pen(touch=0, p=0),
        pen(x=3000, y=3000),                                   # hover
        pen(touch=1, p=800),                                   # stroke 2
        pen(x=22000, y=3100, p=900, tilt=(10, -3)),            # out of range: clamped to 21600
        pen(x=3200, y=3200, p=700),
        pen(touch=0, p=0),
        pen(tool=0),
    ],
    ("pen-tablet", "dropped"): [
        pen(tool=1, touch=1, x=1000, y=1000, p=1000),
        pen(x=1100, p=1000),
        DROPPED,
        pen(x=1300, y=1300),                                   # the kernel rule: ignored up to this SYN_REPORT
        pen(tool=1, touch=1, x=1400, y=1400, p=1000),
        pen(x=1500),
        pen(tool=0, touch=0, p=0),
    ],
    ("pen-tablet", "before-removal"): [
        pen(tool=1, touch=1, x=5000, y=5000, p=2000),
        pen(x=5100, y=5050),
        pen(x=5200, y=5100),
    ],
    ("pen-tablet-replugged", "after-return"): [
        pen(tool=1, touch=1, x=7000, y=7000, p=2000),
        pen(x=7100, y=7000),
        pen(tool=0, touch=0, p=0),
    ],
    ("sigpad", "sign"): [
        pen(tool=1, touch=1, x=100, y=100, p=500),
        pen(x=200, y=150),
        pen(x=300, y=200),
        pen(tool=0, touch=0, p=0),
    ],
    ("touchscreen", "sign"): [
        pen(touch=1, x=100, y=200),
        pen(x=150, y=250),
        pen(x=200),
        pen(touch=0),
        pen(touch=1, x=4000, y=4000),
        pen(x=-50, y=4100),                                    # out of range: clamped to (0, 4095)
        pen(touch=0),
    ],
    ("mt-touchscreen", "sign"): [
        mt((0, (TID, 10), (MX, 500), (MY, 300)), touch=1),     # first finger: signs
        mt((1, (TID, 11), (MX, 1500), (MY, 900))),             # second contact (a palm): ignored
        mt((0, (MX, 520), (MY, 310)), (1, (MX, 1510),)),
        mt((1, (MX, 1520),)),
        mt((0, (TID, -1),)),                                   # signing finger lifts: stroke 1 ends
        mt((1, (MX, 1530),)),                                  # the palm may not take over
        mt((0, (TID, 12), (MX, 600), (MY, 400))),              # a new finger: stroke 2
        mt((0, (MX, 620),)),
        mt((0, (TID, -1),), (1, (TID, -1),), touch=0),
    ],
    ("no-resolution", "sign"): [
        pen(touch=1, x=10, y=20),
        pen(x=1023, y=767),
        pen(touch=0),
    ],
}


# A whole signature for the agent's end-to-end test (ConsentdIntegrationTests.PadCaptureTests): two strokes of
# (x, y, pressure) points, every one a frame of its own with the pen firmly down, so the expected strokes follow
# from the data alone and are written next to the recording (signature.strokes.json, the stroke format of the
# record; ConsentAgentTests checks the pure pipeline produces exactly them from the .evemu).
SIGNATURE = [
    [(2000 + i * 900, 6000 + (1200 if i % 2 else 0) - i * 60, 1200 + i * 50) for i in range(14)],
    [(3000 + i * 1500, 9000 + i * 20, 2000) for i in range(6)],
]


def signature_frames(strokes):
    frames = []
    for n, stroke in enumerate(strokes):
        for i, (x, y, p) in enumerate(stroke):
            frames.append(pen(tool=1 if n == 0 and i == 0 else None, touch=1 if i == 0 else None, x=x, y=y, p=p))
        frames.append(pen(touch=0, p=0))                       # pen lifts: the stroke ends
    frames.append(pen(tool=0))                                 # out of proximity
    return frames


def signature_strokes_json(strokes, axes):
    (_, xmax, xres), (_, ymax, yres), (_, pmax, _) = axes[ABS_X], axes[ABS_Y], axes[ABS_PRESSURE]
    out, frame, first = [], 0, None
    for stroke in strokes:
        points = []
        for x, y, p in stroke:
            usec = 100000 + frame * 10000
            first = usec if first is None else first
            points.append([x / xmax, y / ymax, (usec - first) / 1000, p / pmax])
            frame += 1
        frame += 1                                             # the pen-up frame
        out.append(points)
    return {"strokes": out, "widthMM": xmax / xres, "heightMM": ymax / yres}


def strokes_text(value):
    """The stroke format with one point per line, so a diff shows which point changed."""
    strokes = ",\n".join(
        " [\n" + ",\n".join("  " + json.dumps(point) for point in stroke) + "\n ]" for stroke in value["strokes"])
    return f'{{"widthMM": {value["widthMM"]}, "heightMM": {value["heightMM"]}, "strokes": [\n{strokes}\n]}}\n'


SCENARIOS[("pen-tablet", "signature")] = signature_frames(SIGNATURE)
# A dot: two points, far below the minimum signature (10 points, 15 % of the width of ink).
SCENARIOS[("pen-tablet", "dot")] = [
    pen(tool=1, touch=1, x=5000, y=5000, p=1500),
    pen(x=5010, y=5005, p=1500),
    pen(touch=0, p=0),
    pen(tool=0),
]


def evemu_text(frames, header):
    out = ["# EVEMU 1.3", f"# {header}; generated by generate.py, microseconds never start with 0 (umockdev)."]
    for i, frame in enumerate(frames):
        usec = 100000 + i * 10000
        for t, c, v in frame + [(EV_SYN, SYN_REPORT, 0)] if frame != DROPPED else frame:
            out.append(f"E: 10.{usec} {t:04x} {c:04x} {v}")
    return "\n".join(out) + "\n"


def main():
    for key, d in DEVICES.items():
        folder = os.path.join(HERE, key)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "device.umockdev"), "w") as f:
            f.write(umockdev_text(d))
        with open(os.path.join(folder, "device.ioctl"), "w") as f:
            f.write(ioctl_text(d))
    for (dev, scenario), frames in SCENARIOS.items():
        with open(os.path.join(HERE, dev, f"{scenario}.evemu"), "w") as f:
            f.write(evemu_text(frames, f"{DEVICES[dev]['name']}: {scenario}"))
    with open(os.path.join(HERE, "pen-tablet", "signature.strokes.json"), "w") as f:
        f.write(strokes_text(signature_strokes_json(SIGNATURE, DEVICES["pen-tablet"]["abs"])))


if __name__ == "__main__":
    main()
