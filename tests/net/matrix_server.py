#!/usr/bin/env python3
"""A matrix mirror for the update tests, on 127.0.0.1 only, and its faults.

Started and stopped by tests/unit/matrix_update_test.cpp. Prints
"PORT <n>" once it listens, then serves until killed. Paths:

  /files/NAME          DIR/NAME, with an ETag; If-None-Match that matches: 304
  /slow/NAME           the same after 1.5 s (two updates overlap)
  /truncated/NAME      a Content-Length for all of NAME, half the bytes, close
  /stall/NAME          the status line and headers, then nothing for 60 s
  /big                 17 MiB with no Content-Length (the size limit fires)
  /big-declared        a Content-Length of 100 MB (refused from the header)
  /loop                a redirect to itself
  /to-file             a redirect to file:///etc/passwd (never followed)
  /status/CODE/...     that HTTP status

A request for an absolute URI (a proxy's form) is served by its path and
logged as "proxy". Every request is logged to --log, one line each.
With --tls-dir it serves HTTPS with a certificate for 127.0.0.1 signed by a
test CA that it writes there (ca.pem), using the openssl command.
"""
import argparse
import hashlib
import http.server
import os
import ssl
import subprocess
import sys
import threading
import time
import urllib.parse


def make_tls(d):
    """A throwaway CA and a server certificate for IP 127.0.0.1."""
    def run(*args):
        subprocess.run(["openssl", *args], check=True, cwd=d, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=gpucheck test CA",
        "-keyout", "ca.key", "-out", "ca.pem")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out", "server.csr")
    with open(os.path.join(d, "san.cnf"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
        "-extfile", "san.cnf", "-out", "server.pem")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # every answer ends with the connection

    def log_message(self, *args):
        pass

    def log(self, status, extra=""):
        with self.server.log_lock, open(self.server.log_path, "a") as f:
            f.write(f"{self.command} {self.path} {status} {extra}\n")

    def send_file(self, name, body_limit=None, stall=False):
        path = os.path.join(self.server.dir, os.path.basename(name))
        if not os.path.isfile(path):
            self.log(404)
            self.send_error(404)
            return
        data = open(path, "rb").read()
        etag = '"' + hashlib.sha256(data).hexdigest()[:16] + '"'
        inm = self.headers.get("If-None-Match")
        if inm == etag:
            self.log(304, "if-none-match")
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        self.log(200, "if-none-match" if inm else "")
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", etag)
        self.end_headers()
        self.wfile.flush()
        if stall:
            time.sleep(60)
            return
        self.wfile.write(data if body_limit is None else data[:body_limit])

    def do_GET(self):
        parts = urllib.parse.urlsplit(self.path)
        proxied = bool(parts.scheme)
        path = parts.path
        if proxied:
            self.path = path
        kind, _, rest = path.lstrip("/").partition("/")
        if kind == "files":
            self.send_file(rest)
        elif kind == "slow":
            time.sleep(1.5)
            self.send_file(rest)
        elif kind == "truncated":
            size = os.path.getsize(os.path.join(self.server.dir, os.path.basename(rest)))
            self.send_file(rest, body_limit=size // 2)
        elif kind == "stall":
            self.send_file(rest, stall=True)
        elif kind == "big":
            self.log(200)
            self.send_response(200)
            self.end_headers()
            chunk = b"x" * (1 << 20)
            for _ in range(17):
                self.wfile.write(chunk)
        elif kind == "big-declared":
            self.log(200)
            self.send_response(200)
            self.send_header("Content-Length", "100000000")
            self.end_headers()
        elif kind in ("loop", "to-file"):
            self.log(302)
            self.send_response(302)
            self.send_header("Location", "/loop" if kind == "loop" else "file:///etc/passwd")
            self.end_headers()
        elif kind == "status":
            code = int(rest.split("/")[0])
            self.log(code)
            self.send_error(code)
        else:
            self.log(404)
            self.send_error(404)
        if proxied:
            self.log("proxy")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--tls-dir")
    args = ap.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.dir = args.dir
    server.log_path = args.log
    server.log_lock = threading.Lock()
    if args.tls_dir:
        make_tls(args.tls_dir)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(os.path.join(args.tls_dir, "server.pem"), os.path.join(args.tls_dir, "server.key"))
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
