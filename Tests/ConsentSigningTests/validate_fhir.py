#!/usr/bin/env python3
"""Validates FHIR resources (JSON files) with the fhir.resources R4B models: an implementation of FHIR that
consent-kiosk does not write, so the signing tests check our output against someone else's reading of the spec.

Usage: validate_fhir.py FILE...      (run with the venv made by scripts/ensure-test-venv)
Prints "OK <file>" or "INVALID <file>" followed by the errors; exits 0 when every file is valid, 1 otherwise,
2 when fhir.resources is not installed. A Bundle's entries are also validated one by one with their own models.
"""
import json
import sys

try:
    from fhir.resources.R4B import get_fhir_model_class
except ImportError:
    print("fhir.resources is not installed: run scripts/ensure-test-venv", file=sys.stderr)
    sys.exit(2)


def validate(resource, where):
    errors = []
    rtype = resource.get("resourceType") if isinstance(resource, dict) else None
    if not rtype:
        return [f"{where}: no resourceType"]
    try:
        model = get_fhir_model_class(rtype)
    except Exception:
        return [f"{where}: unknown resourceType {rtype}"]
    try:
        model.model_validate(resource)
    except Exception as error:  # pydantic.ValidationError, or a model's own check
        errors.append(f"{where}: {error}")
    if rtype == "Bundle":
        for index, entry in enumerate(resource.get("entry") or []):
            if isinstance(entry, dict) and "resource" in entry:
                errors += validate(entry["resource"], f"{where}.entry[{index}].resource")
    for index, contained in enumerate(resource.get("contained") or []):
        errors += validate(contained, f"{where}.contained[{index}]")
    return errors


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    failed = False
    for path in paths:
        try:
            with open(path, encoding="utf-8") as handle:
                resource = json.load(handle)
        except Exception as error:
            print(f"INVALID {path}\n  not JSON: {error}")
            failed = True
            continue
        errors = validate(resource, resource.get("resourceType", "?") if isinstance(resource, dict) else "?")
        if errors:
            failed = True
            print(f"INVALID {path}")
            for error in errors:
                print("  " + error.replace("\n", "\n  "))
        else:
            print(f"OK {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
