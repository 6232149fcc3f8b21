"""Checks officer-files --json output against docs/json/officer-files.schema.json.

Reads lines `RECORD<TAB>JSON` on stdin (RECORD names a definition under $defs) and prints one line per
record that does not fit, naming the record, the JSON and why; exits 1 when any did not fit, 2 when a
RECORD is not defined.
"""
import json
import sys

from jsonschema import Draft202012Validator


def main():
    schema = json.load(open(sys.argv[1]))
    definitions = schema["$defs"]
    problems = 0
    for number, line in enumerate(sys.stdin, 1):
        line = line.rstrip("\n")
        if not line:
            continue
        record, _, text = line.partition("\t")
        if record not in definitions:
            print(f"line {number}: no record named {record!r} in the schema", flush=True)
            sys.exit(2)
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            print(f"line {number}: {record}: not JSON ({error}): {text[:200]}")
            problems += 1
            continue
        validator = Draft202012Validator({"$ref": f"#/$defs/{record}", "$defs": definitions})
        for error in validator.iter_errors(value):
            where = "/".join(str(part) for part in error.absolute_path) or "(the record)"
            print(f"line {number}: {record}: {where}: {error.message}: {text[:300]}")
            problems += 1
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
