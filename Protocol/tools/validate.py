#!/usr/bin/env python3
"""Validates what consentd sent against Protocol/schemas.

Input: transcript files, one JSON object per line: {"dir": "->" | "<-", "line": "<the raw line>"}.
"->" lines are what the client sent (only used to know which method a reply answers; tests send invalid ones
on purpose). Every "<-" line must be valid: the envelope, then `hello`'s params, an event's params and data, or a
reply's result for the method its id answered, or the error object (with a registered data.type).

Exit 0 when all are valid; 1 with one line per violation otherwise. Needs jsonschema >= 4.18 (referencing).
"""
import glob
import json
import os
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

PROTOCOL = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = "https://consent-kiosk.example/agent/1/"


def load_registry():
    resources = []
    for path in glob.glob(os.path.join(PROTOCOL, "schemas", "**", "*.schema.json"), recursive=True):
        with open(path) as f:
            schema = json.load(f)
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


class Checker:
    def __init__(self):
        self.registry = load_registry()
        self.validators = {}

    def validator(self, path):
        if path not in self.validators:
            schema = self.registry.contents(BASE + path)
            self.validators[path] = Draft202012Validator(schema, registry=self.registry)
        return self.validators[path]

    def errors(self, path, value):
        try:
            self.registry.contents(BASE + path)
        except Exception:
            return [f"no schema {path}"]
        return [f"{path}: {'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:300]}"
                for e in self.validator(path).iter_errors(value)]

    def check_line(self, line, requests):
        try:
            return self.check_parsed_line(line, requests)
        except RecursionError:
            # consentd never nests this deep; whatever it is, it is reported, not a crash of the checker.
            return ["nested too deeply to parse or check"]

    def check_parsed_line(self, line, requests):
        try:
            msg = json.loads(line)
        except ValueError:
            return ["not JSON"]
        if not isinstance(msg, dict):
            return ["not an object"]
        if any(ord(c) > 0x7E for c in line):
            return ["not ASCII-only"]
        if "method" in msg:
            errs = self.errors("envelope/notification.schema.json", msg)
            if errs:
                return errs
            name = msg["method"]
            if name == "hello":
                return self.errors("envelope/hello.schema.json", msg["params"])
            errs = self.errors("envelope/event-params.schema.json", msg["params"])
            return errs or self.errors(f"events/{name}.schema.json", msg["params"]["data"])
        errs = self.errors("envelope/response.schema.json", msg)
        if errs or "error" in msg:
            return errs
        method = requests.get(json.dumps(msg["id"]))
        if method is None:
            return [f"reply to id {msg['id']!r}, which no request carried"]
        return self.errors(f"methods/{method}.result.schema.json", msg["result"])


def main(paths):
    checker = Checker()
    failures = 0
    checked = 0
    skipped = 0
    for path in paths:
        requests = {}
        with open(path) as f:
            for n, raw in enumerate(f, 1):
                if not raw.strip():
                    continue
                entry = json.loads(raw)
                if entry["dir"] == "->":
                    try:
                        req = json.loads(entry["line"])
                        if isinstance(req, dict) and "id" in req and isinstance(req.get("method"), str):
                            requests[json.dumps(req["id"])] = req["method"]
                    except ValueError:
                        pass
                    except RecursionError:
                        # A hostile client's deeply nested line: Python cannot parse it; it names no method anyway.
                        skipped += 1
                        print(f"{path}:{n}: skipped a client line nested too deeply to parse")
                    continue
                checked += 1
                for err in checker.check_line(entry["line"], requests):
                    failures += 1
                    print(f"{path}:{n}: {err}\n    {entry['line'][:200]}")
    note = f", {skipped} client lines skipped (too deeply nested to parse)" if skipped else ""
    print(f"validate: {checked} messages checked, {failures} violations{note}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
