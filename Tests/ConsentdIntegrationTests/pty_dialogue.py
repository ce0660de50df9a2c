#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal and plays a dialogue with it, as a person at a terminal would.

Usage: pty_dialogue.py DIALOGUE.json -- COMMAND [ARG...]

DIALOGUE.json is a list of [expect, send] pairs: wait until `expect` appears in the output after the previous
match (at most 30 s), then type `send` followed by Enter; a `send` of null types Ctrl-D instead, and a pair of
one element only waits. Prints one JSON
object: {"status": exit status, "output": everything the terminal showed, "failed": the expect not seen, or null}.
"""
import json
import os
import pty
import select
import sys
import time

TIMEOUT = 30.0


def main():
    dialogue_path = sys.argv[1]
    command = sys.argv[sys.argv.index("--") + 1:]
    with open(dialogue_path, encoding="utf-8") as f:
        dialogue = json.load(f)
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "dumb"
        os.execv(command[0], command)
    output = b""
    position = 0
    failed = None

    def read_some(deadline):
        nonlocal output
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            return False
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not chunk:
            return False
        output += chunk
        return True

    for pair in dialogue:
        expect, send = pair[0], (pair[1] if len(pair) > 1 else "")
        needle = expect.encode()
        deadline = time.monotonic() + TIMEOUT
        while output.find(needle, position) < 0:
            if not read_some(deadline):
                failed = expect
                break
        if failed is not None:
            break
        position = output.find(needle, position) + len(needle)
        if len(pair) == 1:
            continue
        os.write(fd, b"\x04" if send is None else send.encode() + b"\n")
        # Let the echo arrive before the next expect, so it is never mistaken for the program's own output.
        if send is not None:
            echo_deadline = time.monotonic() + 2
            while output.find(send.encode() + b"\r\n", position) < 0 and read_some(echo_deadline):
                pass
            found = output.find(send.encode() + b"\r\n", position)
            if found >= 0:
                position = found + len(send) + 2

    deadline = time.monotonic() + TIMEOUT
    while read_some(deadline):
        pass
    if failed is not None:
        os.kill(pid, 9)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    print(json.dumps({"status": code, "output": output.decode("utf-8", "replace"), "failed": failed}))


if __name__ == "__main__":
    main()
