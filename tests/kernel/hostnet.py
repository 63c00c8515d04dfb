"""Servers the network tests run on the host's 127.0.0.1 for the guest to
reach through its forwards."""
import http.server


class BlobServer(http.server.ThreadingHTTPServer):
    """An HTTP server on 127.0.0.1 serving blob at /blob; the paths asked
    for in requests."""

    def __init__(self, blob):
        self.blob = blob
        self.requests = []
        requests = self.requests

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                requests.append(self.path)
                if self.path != "/blob":
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(blob)))
                self.end_headers()
                self.wfile.write(blob)

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
