#!/usr/bin/env python3
"""A stand-in FHIR server for consentd's upload test: loopback only, records every request, answers a transaction
Bundle with a transaction-response. The first request can be failed with 503 to exercise the retry. It prints its
port on the first line and stops by itself after --lifetime seconds."""
import argparse, http.server, json, os, threading

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
parser.add_argument("--fail-first", type=int, default=0)
parser.add_argument("--lifetime", type=float, default=60)
args = parser.parse_args()
count = {"n": 0}

class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        count["n"] += 1
        n = count["n"]
        with open(os.path.join(args.out, f"{n:03d}.json"), "wb") as f:
            f.write(json.dumps({"path": self.path, "contentType": self.headers.get("Content-Type"),
                                "body": body.decode("utf-8")}).encode())
        if n <= args.fail_first:
            self.send_response(503); self.send_header("Content-Length", "0"); self.end_headers(); return
        entries = json.loads(body).get("entry", [])
        reply = json.dumps({"resourceType": "Bundle", "type": "transaction-response",
                            "entry": [{"response": {"status": "201 Created"}} for _ in entries]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/fhir+json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Timer(args.lifetime, server.shutdown).start()
server.serve_forever()
