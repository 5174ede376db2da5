"""A network camera on 127.0.0.1 for tests and benchmarks: MJPEG over HTTP, as IP cameras send it.

``MjpegServer(camera)`` serves ``camera.jpeg()`` (the picture of now) to every client as a
``multipart/x-mixed-replace`` stream, which OpenCV's FFmpeg backend reads as it reads a real
network camera. Faults are part of the server: ``down()`` switches the camera off (open
connections dropped, new ones answered 503) and ``stall_first`` makes the first connection
go silent while it stays open. ``Recording`` plays a rendered game (``simulator.video``) in
real time; ``NumberedFrames`` sends small frames that read back as their number.

Only ever bound to 127.0.0.1.
"""

from __future__ import annotations

import socket
from abc import ABC, abstractmethod
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cv2
import numpy as np


class Camera(ABC):
    """What a network camera films: ``jpeg()`` the picture of now (None: nothing yet)."""

    @abstractmethod
    def jpeg(self) -> bytes | None:
        """The picture of now as JPEG bytes, or None before the first one."""


class NumberedFrames(Camera):
    """Small frames whose green level counts up (4 a frame, from 0 again after 64), ``fps`` a second."""

    def __init__(self, fps: float = 20.0):
        self.fps, self.t0 = fps, None

    def index(self) -> int:
        self.t0 = time.monotonic() if self.t0 is None else self.t0
        return int((time.monotonic() - self.t0) * self.fps)

    def jpeg(self) -> bytes:
        img = np.zeros((48, 64, 3), np.uint8)
        img[:, :, 1] = (4 * self.index()) % 256
        return cv2.imencode(".jpg", img)[1].tobytes()


class Recording(Camera):
    """A recording played in real time, as the camera filmed it: from the first request on, or
    with ``wait_for_go`` from ``go()`` on (the player starts at the Caller's "Go!"; until then
    the camera films the dealt board). After its end the last picture stays (the table is
    still there)."""

    def __init__(self, path: Path, wait_for_go: bool = False):
        self.cap = cv2.VideoCapture(str(path))
        self.fps = self.cap.get(cv2.CAP_PROP_FPS)
        self.t0, self.pos, self.last = None, -1, None
        self.waiting = wait_for_go
        self.lock = threading.Lock()

    def go(self) -> None:
        with self.lock:
            self.waiting = False

    def clock(self) -> float:
        if self.waiting:
            return 0.0
        self.t0 = time.monotonic() if self.t0 is None else self.t0
        return time.monotonic() - self.t0

    def jpeg(self) -> bytes | None:
        with self.lock:
            want = int(self.clock() * self.fps)
            while self.pos < want - 1 and self.cap.grab():  # frames nobody asked for are skipped
                self.pos += 1
            if self.pos < want:
                ok, img = self.cap.read()
                if ok:
                    self.pos += 1
                    self.last = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
            return self.last


class MjpegServer:
    """MJPEG over HTTP on 127.0.0.1 (multipart/x-mixed-replace, as network cameras send it).

    ``down(now)``: the camera is off at this moment: open connections are dropped and new
    ones answered 503. ``stall_first``: the first connection stops sending after that many
    frames and holds the connection open, silent; later connections are served.
    """

    def __init__(self, camera: Camera, *, down=None, stall_first: int | None = None, fps: float = 30.0):
        self.camera, self.down, self.stall_first, self.fps = camera, down or (lambda: False), stall_first, fps
        self.connections = 0
        self.log: list[tuple[float, str]] = []  # (monotonic time, "down" | "up" | "stalled"): what the camera did
        self._was_down = False
        self.stalled = threading.Event()  # the first connection went silent
        self.stall_open = threading.Event()  # ... and is still open (cleared when the client hung up)
        self.stop = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if server.is_down():
                    self.send_error(503, "camera off")
                    return
                server.connections += 1
                first = server.connections == 1
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                sent = 0
                try:
                    while not server.stop.is_set() and not server.is_down():
                        if first and server.stall_first is not None and sent >= server.stall_first:
                            server.stall_open.set()
                            server.stalled.set()
                            server.log.append((time.monotonic(), "stalled"))
                            self.connection.settimeout(0.05)
                            while not server.stop.is_set():  # silent; watch for the client hanging up
                                try:
                                    if self.connection.recv(1) == b"":
                                        break
                                except socket.timeout:
                                    continue
                            server.stall_open.clear()
                            return
                        data = server.camera.jpeg()
                        if data is not None:
                            self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(data)
                                             + data + b"\r\n")
                            self.wfile.flush()
                            sent += 1
                        server.stop.wait(1.0 / server.fps)
                except OSError:
                    pass  # the client hung up

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/camera.mjpg"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def is_down(self) -> bool:
        """``down()``, with each switch of the camera logged the first time a handler sees it."""
        down = bool(self.down())
        if down != self._was_down:
            self._was_down = down
            self.log.append((time.monotonic(), "down" if down else "up"))
        return down

    def close(self) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()
