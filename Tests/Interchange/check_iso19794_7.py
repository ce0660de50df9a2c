#!/usr/bin/env python3
"""Compares each signature-<role>.iso19794-7 with the signature.json beside it, point for point, through the
independent reader (iso19794_7_reader.py): what another tool reading the published layout gets back.

Usage: check_iso19794_7.py [--expect-files] PATH...
PATH is a record directory or a folder searched for them. A folder whose manifest.json pins other bytes for
signature.json or a 19794-7 file (a test tampered with the record on purpose) is skipped and counted.
For each 19794-7 file whose folder has a signature.json,
the pen-down samples (S = 1) must be the role's strokes in order and the pen-up samples (S = 0) its hover, with
x = (X - Xmin) / (Xmax - Xmin), y = (Ymax - Y) / (Ymax - Ymin) (the format's Y grows upward, the stroke format's
downward), t = T / Tscaling seconds, p = F / Fmax (a point without pressure is 0), each within half a unit of its channel; T never decreases.
Prints "OK <file> (<n> samples)" or "MISMATCH <file>: ..." per file; exits 0 when every file matched, 1 otherwise
(also when --expect-files is given and no file was found).
"""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from iso19794_7_reader import FormatError, read_record  # noqa: E402

ROLES = {"legallyAuthorizedRepresentative": "representative"}


def signers(signature_json):
    """The strokes of each role, named as the record names its 19794-7 files."""
    roles = {}
    top = "representative" if signature_json.get("signedBy") == "legallyAuthorizedRepresentative" else "participant"
    roles[top] = signature_json
    used = {top: 1}
    for other in signature_json.get("additionalSigners") or []:
        role = ROLES.get(other["role"], other["role"])
        used[role] = used.get(role, 0) + 1
        roles[role if used[role] == 1 else f"{role}-{used[role]}"] = other["signature"]
    return roles


def changed_after_signing(folder, names):
    """The files of `names` whose SHA-256 is not the one the record's manifest.json (when beside them) pins: a test
    that tampers with a record on purpose leaves such files, which say nothing about the writer."""
    path = os.path.join(folder, "manifest.json")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        pinned = {entry.get("name"): entry.get("sha256") for entry in json.load(handle).get("files", [])}
    changed = []
    for name in names:
        with open(os.path.join(folder, name), "rb") as handle:
            if pinned.get(name) != hashlib.sha256(handle.read()).hexdigest():
                changed.append(name)
    return changed


def compare(record, strokes):
    d = record["descriptions"]
    for name in ("X", "Y", "T", "S"):
        if name not in d:
            return f"no {name} channel"
    for name in ("X", "Y"):
        if d[name].get("minimum") is None or d[name].get("maximum") is None or d[name]["maximum"] <= d[name]["minimum"]:
            return f"{name} is not described with a minimum below its maximum"
    x_min, x_span = d["X"]["minimum"], d["X"]["maximum"] - d["X"]["minimum"]
    y_max, y_span = d["Y"]["maximum"], d["Y"]["maximum"] - d["Y"]["minimum"]
    t_scale = d["T"].get("scaling") or 1000
    f_max = d.get("F", {}).get("maximum")
    samples = record["samples"]
    down = [s for s in samples if s["S"] != 0]
    up = [s for s in samples if s["S"] == 0]
    points = [p for stroke in strokes.get("strokes", []) for p in stroke]
    hover = strokes.get("hover") or []
    if len(down) != len(points):
        return f"{len(down)} pen-down samples, signature.json has {len(points)} points"
    if len(up) != len(hover):
        return f"{len(up)} pen-up samples, signature.json has {len(hover)} hover samples"
    times = [s["T"] for s in samples]
    if times != sorted(times):
        return "T decreases"
    for kind, got, want in (("point", down, points), ("hover sample", up, hover)):
        for index, (s, p) in enumerate(zip(got, want)):
            x, y, t = (s["X"] - x_min) / x_span, (y_max - s["Y"]) / y_span, s["T"] * 1000 / t_scale
            checks = [("x", x, p[0], 0.5 / x_span), ("y", y, p[1], 0.5 / y_span), ("t", t, p[2], 500 / t_scale)]
            if f_max:
                pressure = p[3] if len(p) > 3 and p[3] is not None else 0
                checks.append(("p", s["F"] / f_max, pressure, 0.5 / f_max))
            for name, value, expected, tolerance in checks:
                if abs(value - expected) > tolerance + 1e-9:
                    return f"{kind} {index}: {name} {value} from the file, {expected} in signature.json"
    return None


def main(arguments):
    expect = "--expect-files" in arguments
    paths = [a for a in arguments if a != "--expect-files"]
    checked, failed, skipped = 0, 0, 0
    for path in paths:
        for folder, _, names in sorted(os.walk(path)):
            files = sorted(n for n in names if n.startswith("signature-") and n.endswith(".iso19794-7"))
            if not files or "signature.json" not in names:
                continue
            changed = changed_after_signing(folder, ["signature.json"] + files)
            if changed:
                skipped += 1
                print(f"SKIPPED {folder}: {', '.join(changed)} changed after signing (the manifest pins other bytes)")
                continue
            with open(os.path.join(folder, "signature.json"), encoding="utf-8") as handle:
                roles = signers(json.load(handle))
            for name in files:
                file = os.path.join(folder, name)
                role = name[len("signature-"):-len(".iso19794-7")]
                checked += 1
                try:
                    with open(file, "rb") as handle:
                        record = read_record(handle.read())
                    problem = compare(record, roles[role]) if role in roles else f"no {role} in signature.json"
                except FormatError as error:
                    problem = f"unreadable: {error}"
                if problem:
                    failed += 1
                    print(f"MISMATCH {file}: {problem}")
                else:
                    print(f"OK {file} ({len(record['samples'])} samples)")
    print(f"{checked} files checked, {failed} mismatched, {skipped} records skipped as changed after signing")
    if failed or (expect and checked == 0):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
