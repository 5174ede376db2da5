"""The keyword spotter: "Caller, done [NAME]", "Caller, repeat", "Caller, hint", "Caller, pause".

pocketsphinx 5 (the English acoustic model and dictionary in its wheel; nothing is
downloaded) does the work in three steps:

1. Its voice activity endpointer cuts the stretches of speech out of the audio; only they
   reach the decoder, so its running cepstral mean follows voices, not silence.
2. The decoder follows each stretch with a finite-state grammar that is a loop of either
   "caller" and a command word (a name may follow "done") or one phone (39 filler
   pseudo-words, one per English phone). Speech that is not a command is matched by the
   phone loop; a command wins where its words fit better than any run of phones, helped
   by ``phone_p`` (the probability of each filler phone: smaller hears more commands,
   and more that were not said). The best path so far is looked at after every chunk
   (0.1 s); a command is a candidate once it has stayed on it for ``STABLE`` chunks
   (a "done" waits ``NAME_WAIT_S`` of decoded audio for a name).
3. A second look at the candidate's stretch, decoded whole rather than as a partial path:
   first as "caller" and any one command word (which command it was), then, for a "done"
   without a name, as "caller done", a name or none, and free phones (whether a name
   followed); last, as exactly that phrase and as free phones: it is reported only when it
   lasted at least ``min_seconds`` (no one says "Caller, done" in a quarter of a second) and
   the phrase's acoustic log-likelihood is at least ``min_score`` nats a frame above the
   free phones' (0: the phrase fits the sound better than any run of English phones does;
   the length was set on the tuning voices of benchmarks/bench_listen.py, see
   docs/listening.md).

``Heard.t`` is the time the phrase's last word ended, in seconds of audio from the start.
The utterance is restarted after each command and every ``RESTART_S`` of speech (decoding
the last ``RESTART_OVERLAP_S`` again, so a phrase is not cut in two), so decoding costs the
same at any hour. docs/listening.md has the measured accuracy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from voice.errors import VoiceError
from voice.listen.audio import RATE

FRAME_S = 0.01  # pocketsphinx's frame rate: 100 frames a second

#: what a player says -> the phrase's name in events (the word after "Caller")
PHRASES: dict[str, str] = {"done": "caller done", "repeat": "caller repeat", "hint": "caller hint", "pause": "caller pause"}

#: the phones of the en-us model, one filler pseudo-word each (SIL is the decoder's own)
PHONES = ("AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH").split()

#: set on the tuning voices of benchmarks/bench_listen.py (see docs/listening.md)
PHONE_P = 1e-12
STABLE = 2
#: decoded audio after "done" before a "done" without a name is taken as one (1.5 s put every
#: nameless "done" past the point where a player expects an answer)
NAME_WAIT_S = 0.6
#: the probability of each sound (one filler phone) between "done" and a name in the name look
NAME_GAP_P = 1e-2
RESTART_S = 8.0
#: speech decoded again after a restart that no command caused
RESTART_OVERLAP_S = 1.5
#: the second look at a candidate: seconds of audio kept, margin each side, least score to report
#: (nats a frame, the phrase against free phones), least length of the phrase to report (s)
KEEP_S = 12.0
VERIFY_MARGIN_S = 0.15
MIN_SCORE = 0.0
MIN_SECONDS = 0.75
#: the log of a density pocketsphinx hands out as 0.0 (under the smallest float)
LOG_ZERO = -745.0
#: standard deviation of the noise added to every sample (about -60 dB of full scale, a quiet
#: microphone's own hiss): digital silence, as in a synthesised file, upsets the features
DITHER = 30.0


@dataclass(frozen=True)
class Heard:
    """One phrase heard: ``t`` seconds of audio at the end of its last word, ``phrase`` one of
    PHRASES' keys, ``name`` the player named after "done" (None if none was said)."""

    t: float
    phrase: str
    name: str | None = None
    score: float = 0.0  # how much better the phrase fits the sound than free phones (nats a frame)
    seconds: float = 0.0  # how long the phrase lasted

    def to_json(self) -> dict:
        return {"t": round(self.t, 2), "phrase": self.phrase, "name": self.name}


def _filler(phone: str) -> str:
    return "ph_" + phone.lower()


def transitions(names: Iterable[str] = (), phone_p: float = PHONE_P) -> list[tuple]:
    """The grammar as a finite-state loop: state 0 goes to itself through one phone, or
    through "caller" and a command word; "done" may be followed by a name. ``phone_p`` is
    the probability of each filler phone (the spotter's one threshold: smaller makes every
    stretch of sound that is not a command cost more, so more commands are heard)."""
    names = sorted({n.lower() for n in names})
    p_end = 1e-6
    p_phone = phone_p
    p_cmd = 1.0 - p_end - p_phone * len(PHONES)
    out: list[tuple] = [(0, 0, p_phone, _filler(p)) for p in PHONES]
    out.append((0, 1, p_cmd, "caller"))
    out.append((0, 4, p_end))  # the final state, reached only by the end of an utterance
    for phrase in PHRASES:
        out.append((1, 2 if phrase == "done" and names else 0, 1.0 / len(PHRASES), phrase))
    if names:
        out.append((2, 0, 0.5))  # "done" without a name
        out += [(2, 0, 0.5 / len(names), n) for n in names]
    return out


class Spotter:
    """Feed 16 kHz int16 chunks with ``feed``; get the phrases heard in them.

    ``names``: players' names that may follow "Caller, done" (each must be a word of
    pocketsphinx's English dictionary, or is given a pronunciation with ``pronounce``).
    """

    def __init__(self, names: Iterable[str] = (), phone_p: float = PHONE_P, *,
                 min_score: float | None = None, min_seconds: float | None = None,
                 pronounce: dict[str, str] | None = None):
        try:
            from pocketsphinx import Decoder
        except ImportError as exc:
            raise VoiceError(f"listening needs pocketsphinx ({exc}): pip install 'pocketsphinx>=5,<6'") from None
        self.names = [n.strip() for n in names if n.strip()]
        self.phone_p = phone_p
        # narrow beams: about a tenth of a CPU core in real time for this small grammar
        self._decoder = Decoder(samprate=RATE, loglevel="FATAL", beam=1e-30, wbeam=1e-20, maxhmmpf=3000)
        for p in PHONES:
            self._decoder.add_word(_filler(p), p, False)
        for name, phones in (pronounce or {}).items():
            self._decoder.add_word(name.lower(), phones, False)
        unknown = [n for n in self.names if self._decoder.lookup_word(n.lower()) is None]
        if unknown:
            raise VoiceError(f"the recogniser does not know how to say {', '.join(map(repr, unknown))}: "
                             "use names from its English dictionary (Ann, Bob, Kim ...)")
        self._by_lower = {n.lower(): n for n in self.names}
        fsg = self._decoder.create_fsg("listen", 0, 4, transitions(self.names, phone_p))
        self._decoder.add_fsg("listen", fsg)
        self._decoder.activate_search("listen")
        self._rng = np.random.default_rng(0)  # a little dither: digital silence upsets the features
        self._samples = 0  # samples fed so far
        self._recent: list[np.ndarray] = []  # the last KEEP_S of audio, for the second look
        self._recent_start = 0  # sample index of its first sample
        self.min_score = MIN_SCORE if min_score is None else min_score
        self.min_seconds = MIN_SECONDS if min_seconds is None else min_seconds
        self._verifier = Decoder(samprate=RATE, loglevel="FATAL", beam=1e-40, wbeam=1e-30, maxhmmpf=10000)
        for p in PHONES:
            self._verifier.add_word(_filler(p), p, False)
        for name, phones in (pronounce or {}).items():
            self._verifier.add_word(name.lower(), phones, False)
        self._verifier.add_fsg("phones", self._verifier.create_fsg(
            "phones", 0, 1, [(0, 0, 1.0 / len(PHONES), _filler(p)) for p in PHONES] + [(0, 1, 1e-6)]))
        self._verifier.add_fsg("commands", self._verifier.create_fsg(
            "commands", 0, 2, [(0, 1, 1.0, "caller")] + [(1, 2, 1.0 / len(PHRASES), p) for p in PHRASES]))
        self._utt_start = 0  # sample index of the current utterance's first frame
        self._dec_samples = 0  # samples the decoder has had in the current utterance
        self._fired = 0  # commands of the current utterance already reported
        self._last: tuple | None = None
        self._seen = 0
        # only speech reaches the decoder, so its running cepstral mean follows voices, not the
        # silence between them (after a long silence the first phrase was lost without this):
        # pocketsphinx's voice activity endpointer cuts the speech out
        from pocketsphinx import Endpointer

        self._ep = Endpointer(window=0.3, ratio=0.9)
        self._ep_frame = self._ep.frame_bytes // 2
        self._unframed = np.zeros(0, dtype=np.int16)
        self._in_speech = False

    @property
    def t(self) -> float:
        """Seconds of audio fed so far."""
        return self._samples / RATE

    def feed(self, chunk: np.ndarray) -> list[Heard]:
        """Decode one chunk; return the phrases that became certain with it."""
        x = np.asarray(chunk, dtype=np.int16)
        noisy = np.clip(x + self._rng.normal(0.0, DITHER, len(x)), -32768, 32767).astype(np.int16)
        self._recent.append(noisy)
        self._samples += len(x)
        while sum(map(len, self._recent)) > KEEP_S * RATE:
            self._recent_start += len(self._recent.pop(0))
        self._unframed = np.concatenate([self._unframed, noisy])
        out: list[Heard] = []
        n = self._ep_frame
        while len(self._unframed) >= n:
            frame, self._unframed = self._unframed[:n], self._unframed[n:]
            speech = self._ep.process(frame.tobytes())
            if self._ep.in_speech and not self._in_speech:  # a stretch of speech begins
                self._in_speech = True
                self._decoder.start_utt()
                self._new_utt(int(round(self._ep.speech_start * RATE)))
            if speech is not None and self._in_speech:
                self._decoder.process_raw(speech)
                self._dec_samples += len(speech) // 2
            if self._in_speech and not self._ep.in_speech:  # ... and ends
                out += self._end_speech()
        if self._in_speech:
            out += self._check(final=False)
            if not out and self._dec_samples > RESTART_S * RATE and not self._pending():
                self._restart(RESTART_OVERLAP_S)
        return out

    def feed_muted(self, chunk: np.ndarray) -> list[Heard]:
        """A chunk heard while the Caller itself spoke: fed as silence of the same length, so
        time runs on and a phrase that ended before it is still reported, but nothing said
        in it can be taken for a command."""
        return self.feed(np.zeros(len(chunk), dtype=np.int16))

    def finish(self) -> list[Heard]:
        """The end of the audio: whatever the last words were."""
        return self._end_speech() if self._in_speech else []

    # -- internals ----------------------------------------------------------------------------------
    def _words(self) -> list[tuple[str, int, int]]:
        """The best path so far: (word, end frame, start frame) without the decoder's silences and fillers."""
        hyp = self._decoder.hyp()
        if hyp is None or "caller" not in hyp.hypstr:
            return []  # the common case, cheap: no command on the path
        out = []
        for seg in self._decoder.seg():
            if seg.word.startswith(("<", "[")) or seg.word in ("<sil>",):
                continue
            out.append((seg.word.split("(")[0], seg.end_frame, seg.start_frame))
        return out

    def _commands(self, words: list[tuple[str, int, int]]) -> list[tuple[str, str | None, int, bool, int]]:
        """(phrase, name, end frame, complete, start frame) for each command on the path; ``complete``
        is False for a "done" that a name may still follow (none yet, less than NAME_WAIT_S ago)."""
        out = []
        now = self._dec_samples / RATE  # audio the decoder has had since the utterance began
        for i, (w, ef, sf) in enumerate(words[:-1]):
            if w != "caller" or words[i + 1][0] not in PHRASES:
                continue
            phrase, end = words[i + 1][0], words[i + 1][1]
            name = None
            complete = True
            if phrase == "done" and self.names:
                if i + 2 < len(words) and words[i + 2][0] in self._by_lower:
                    name, end = self._by_lower[words[i + 2][0]], words[i + 2][1]
                else:
                    complete = now - (end + 1) * FRAME_S >= NAME_WAIT_S
            out.append((phrase, name, end, complete, sf))
        return out

    def _pending(self) -> bool:
        hyp = self._decoder.hyp()
        return hyp is not None and hyp.hypstr.split()[-1:] in (["caller"], *([p] for p in PHRASES))

    def _check(self, final: bool) -> list[Heard]:
        cmds = self._commands(self._words())
        if len(cmds) <= self._fired:
            self._last, self._seen = None, 0
            return []
        phrase, name, end, complete, start = cmds[self._fired]
        key = (self._fired, phrase, name, end if complete else None)
        self._seen = self._seen + 1 if key == self._last else 1
        self._last = key
        t_end = (self._utt_start / RATE) + (end + 1) * FRAME_S
        if not final and (self._seen < STABLE or not complete):
            return []
        t_start = (self._utt_start / RATE) + start * FRAME_S
        phrase, name = self._which(phrase, name, t_start, t_end)
        if phrase == "done" and self.names and name is None:
            name, t_end = self._name_look(t_start, t_end)
        score = self._verify(phrase, name, t_start, t_end)
        self._fired += 1
        seconds = t_end - t_start
        ok = score >= self.min_score and seconds >= self.min_seconds
        heard = [Heard(round(t_end, 2), phrase, name, round(score, 3), round(seconds, 2))] if ok else []
        if not final:
            self._restart()
        return heard

    def _audio(self, t0: float, t1: float) -> np.ndarray:
        a = int(t0 * RATE) - self._recent_start
        b = int(t1 * RATE) - self._recent_start
        return np.concatenate(self._recent)[max(0, a) : max(0, b)] if self._recent else np.zeros(0, np.int16)

    def _decode(self, search: str, audio: np.ndarray) -> None:
        """The second look's decoder over ``audio`` as one whole utterance with ``search``
        (its words then in ``self._verifier.seg()``)."""
        self._verifier.activate_search(search)
        self._verifier.start_utt()
        self._verifier.process_raw(audio.tobytes(), full_utt=True)
        self._verifier.end_utt()

    def _which(self, phrase: str, name: str | None, t_start: float, t_end: float) -> tuple[str, str | None]:
        """Which command it was: the running decoder chooses on a partial path, so the stretch is
        decoded again, whole, as "caller" and any one command word (a "hint" that looked like a
        "repeat" half-way through is a "hint" here). A name heard stays with a "done"."""
        audio = self._audio(t_start - VERIFY_MARGIN_S, t_end + VERIFY_MARGIN_S)
        if len(audio) < 0.2 * RATE:
            return phrase, name
        self._decode("commands", audio)
        words = [seg.word.split("(")[0] for seg in self._verifier.seg() or ()]
        chosen = next((w for w in words if w in PHRASES), phrase)
        return chosen, name if chosen == "done" else None

    def _name_look(self, t_start: float, t_end: float) -> tuple[str | None, float]:
        """Whether a name follows a "done" that the running decoder heard without one: the stretch
        from "caller" to NAME_WAIT_S after "done" decoded whole as "caller done", then a name or
        nothing, then free phones. The name and the end of the phrase."""
        audio = self._audio(t_start - VERIFY_MARGIN_S, t_end + NAME_WAIT_S)
        if len(audio) < 0.2 * RATE:
            return None, t_end
        names = sorted(self._by_lower)
        # a few sounds (a breath, the table's noise) may come between "done" and the name
        tr = [(0, 1, 1.0, "caller"), (1, 2, 1.0, "done"), (2, 3, 0.5)] + [(2, 3, 0.5 / len(names), n) for n in names]
        tr += [(2, 2, NAME_GAP_P, _filler(p)) for p in PHONES]
        tr += [(3, 3, 1.0 / len(PHONES), _filler(p)) for p in PHONES] + [(3, 4, 1e-6)]
        self._verifier.add_fsg("names", self._verifier.create_fsg("names", 0, 4, tr))
        self._decode("names", audio)
        t0 = t_start - VERIFY_MARGIN_S
        for seg in self._verifier.seg() or ():
            w = seg.word.split("(")[0]
            if w in self._by_lower:
                return self._by_lower[w], max(0.0, t0) + (seg.end_frame + 1) * FRAME_S
        return None, t_end

    def _verify(self, phrase: str, name: str | None, t_start: float, t_end: float) -> float:
        """The second look: the stretch from ``t_start`` to ``t_end`` (with a margin) decoded
        once as exactly the phrase and once as free phones; the difference of the two acoustic
        log-likelihoods in nats a frame (0: the phrase fits as well as free phones; more
        negative: worse). pocketsphinx hands each word's acoustic score out as a density
        (``Segment.ascore``, the exponential of its log score), so the logs are taken here;
        the sentence markers ``<s>``, ``</s>`` carry no sound of their own."""
        audio = self._audio(t_start - VERIFY_MARGIN_S, t_end + VERIFY_MARGIN_S)
        if len(audio) < 0.2 * RATE:
            return float("-inf")
        words = ["caller", phrase] + ([name.lower()] if name else [])
        forced = self._verifier.create_fsg("forced", 0, len(words), [(i, i + 1, 1.0, w) for i, w in enumerate(words)])
        scores = []
        for search, fsg in (("forced", forced), ("phones", None)):
            if fsg is not None:
                self._verifier.add_fsg(search, fsg)
            self._decode(search, audio)
            segs = list(self._verifier.seg() or ())  # no path: the phrase cannot fit at all
            if not segs:
                return float("-inf")
            scores.append(sum(math.log(seg.ascore) if seg.ascore > 0 else LOG_ZERO
                              for seg in segs if seg.word not in ("<s>", "</s>")))
        frames = len(audio) / RATE / FRAME_S
        return (scores[0] - scores[1]) / frames

    def _new_utt(self, start: int) -> None:
        self._utt_start, self._dec_samples, self._fired, self._last, self._seen = start, 0, 0, None, 0

    def _end_speech(self) -> list[Heard]:
        self._decoder.end_utt()
        self._in_speech = False
        return self._check(final=True)

    def _restart(self, overlap_s: float = 0.0) -> None:
        """A new utterance from here; ``overlap_s`` of the audio already decoded is decoded again
        at its start, so that a phrase that had begun is not cut in two."""
        self._decoder.end_utt()
        self._decoder.start_utt()
        end = self._utt_start + self._dec_samples
        start = max(self._utt_start, end - int(overlap_s * RATE))
        self._new_utt(start)
        if end > start:
            a, b = start - self._recent_start, end - self._recent_start
            audio = np.concatenate(self._recent)[max(0, a) : max(0, b)]
            self._decoder.process_raw(audio.tobytes())
            self._dec_samples = len(audio)
