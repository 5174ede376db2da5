"""Hands-free commands: "Caller, done / repeat / hint / pause" heard on a microphone or in a WAV file.

* ``audio``: where the sound comes from (a WAV file, or a microphone through ``arecord`` or
  ``sounddevice``), always as 16 kHz mono 16-bit chunks;
* ``spotter``: the keyword spotter (pocketsphinx 5, the English model in its wheel), which
  turns chunks into ``Heard`` phrases with the time they ended;
* ``worker``: a thread that runs a source through a spotter so that the camera loop only
  ever takes what was heard, without waiting.

docs/listening.md explains how the spotter works and how well (benchmarks/bench_listen.py).
"""

from voice.listen.spotter import PHRASES, Heard, Spotter
from voice.listen.audio import open_audio
from voice.listen.worker import Listener, listen_file

__all__ = ["PHRASES", "Heard", "Spotter", "open_audio", "Listener", "listen_file"]
