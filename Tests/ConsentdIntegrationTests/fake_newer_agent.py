#!/usr/bin/env python3
"""A stand-in for a newer consentd whose flow has a step `consentctl walk` does not know (a witness step).

Usage: fake_newer_agent.py SOCKET METHODS_LOG
Serves one connection on SOCKET, answers as the protocol says, and appends each request's method to METHODS_LOG.
Only for the walk's test of unknown steps; everything else is tested against the real consentd.
"""
import json
import os
import socket
import sys


def flow(step, view, **extra):
    return dict({"flow": "f-1", "study": "s", "step": step, "view": dict(view, step=step)}, **extra)


WITNESS = flow("witness", {
    "title": "Witness", "actions": ["setWitness", "next", "cancel"],
    "witness": {"instruction": "A witness signs here", "hasName": False},
})
COMPLETED = flow("completed", {"title": "Done", "actions": [], "end": {"message": "Thank you"}}, record="r-1")
CANCELLED = flow("cancelled", {"title": "Cancelled", "actions": [], "end": {}})


def main():
    path, log_path = sys.argv[1], sys.argv[2]
    if os.path.exists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)
    server.settimeout(60)
    connection, _ = server.accept()
    out = connection.makefile("w", encoding="utf-8")
    out.write(json.dumps({"jsonrpc": "2.0", "method": "hello", "params": {"versions": [1]}}) + "\n")
    out.flush()
    for line in connection.makefile("r", encoding="utf-8"):
        request = json.loads(line)
        method = request["method"]
        with open(log_path, "a", encoding="utf-8") as log:
            log.write(method + "\n")
        results = {
            "session.negotiate": {"version": 1, "session": "x", "capabilities": []},
            "pads.list": {"pads": []},
            "flow.start": WITNESS,
            "flow.next": COMPLETED,
            "flow.cancel": CANCELLED,
        }
        if method in results:
            reply = {"jsonrpc": "2.0", "id": request["id"], "result": results[method]}
        else:
            reply = {"jsonrpc": "2.0", "id": request["id"],
                     "error": {"code": -32601, "message": "no such method", "data": {"type": "MethodNotFound"}}}
        out.write(json.dumps(reply) + "\n")
        out.flush()
    os.unlink(path)


if __name__ == "__main__":
    main()
