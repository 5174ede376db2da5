"""Keyword spotting benchmark: detection per phrase and SNR, false triggers per hour, latency.

    .venv/bin/python benchmarks/bench_listen.py            # tune, then report (about 10 minutes on 2 cores)
    .venv/bin/python benchmarks/bench_listen.py --quick    # a smaller smoke run

Every sound is synthetic (voice/listen/synth.py): the phrases are said by espeak-ng, the
table noise is tile-like noise bursts plus espeak-ng babble, mixed at equal power and
scaled to 0, 10 and 20 dB below the phrases. The spotter's one threshold (``phone_p``) is
chosen on the TUNE voices, seed, names and texts; the table is then measured on the
REPORT voices, seed, names and texts, none of which took part in the choice.

Latency is the time from the last sample of the phrase to the moment the spotter reports
it (audio time: what the spotter had been fed by then), so it is the same on any machine;
the decoder's own speed is printed as the real-time factor.

False triggers are counted twice: with the microphone hearing everything (the Caller's own
announcements through a loudspeaker included), and as in ``caller watch``/``race --listen``,
where what the microphone hears while the Caller speaks (and MUTE_TAIL_S after) is not
listened to; the second is per hour of the audio that was listened to.

``--voices recorded`` uses voices built from recordings of real speakers instead of
espeak-ng's formant voices: Festival's kal, ked and slt to tune, Flite's awb and rms (CMU
ARCTIC speakers none of the tuning voices is made from) to report (``apt install festival
festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts flite``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from voice.listen import synth  # noqa: E402
from voice.listen.audio import CHUNK, RATE  # noqa: E402
from voice.listen.spotter import MIN_SCORE, MIN_SECONDS, PHONE_P, Spotter  # noqa: E402
from caller.listening import MUTE_TAIL_S  # noqa: E402

TUNE = {"voices": ["en-us", "en-gb-x-rp", "en-us+m3"], "speeds": [140, 180], "seed": 1, "names": ["Ann", "Bob"],
        "fa_seeds": range(0, 6), "talk": 0}
REPORT = {"voices": ["en-029", "en-gb-scotland", "en-us+m7", "en-gb-x-gbclan"], "speeds": [150, 190], "seed": 2,
          "names": ["Kim", "Tom"], "fa_seeds": range(100, 160), "talk": 1}
#: voices built from recordings of real speakers (Festival to tune, Flite's other speakers to report)
RECORDED_TUNE = dict(TUNE, voices=["festival:kal_diphone", "festival:ked_diphone", "festival:cmu_us_slt_arctic_hts"])
RECORDED_REPORT = dict(REPORT, voices=["flite:awb", "flite:rms"])
VOICE_SETS = {"espeak": (TUNE, REPORT), "recorded": (RECORDED_TUNE, RECORDED_REPORT)}
CALLER_VOICE = ("gmw/en-us+klatt3", 140)  # the Caller's own voice (voice/config.py)
SNRS = (0, 10, 20)
CANDIDATES = (1e-12, 1e-20)

#: table talk that never says the phrases; half for tuning, half for the report
TALK = (
    ["Your turn, I think. No wait, it is mine.", "Slide the red one up, then the blue one across.",
     "I am almost there, just two more tiles.", "Could you pass me the coins please?",
     "That was quick, well played.", "Is the hole supposed to be in the corner?",
     "Let me think about this one for a second.", "Who dealt this board, it is impossible.",
     "The green column is nearly sorted.", "I called it too early last time.",
     "Can we play another round after this?", "Hold on, I moved the wrong tile.",
     "Colour matters more than the number here.", "She always finishes first.",
     "Put the pawns back on their spaces.", "That one goes in the top row."],
    ["How many rounds are we playing tonight?", "I think the black ace goes on the left.",
     "Stop looking at my board.", "Hand me the dice, I want to try the other game.",
     "We finished at the same time, almost.", "The collar on that shirt is very nice.",
     "Please don't rush me, I am counting.", "Is it my go or yours?",
     "I need a little clue about the second row.", "Let's take a short break after this.",
     "Row three is all wrong again.", "You're calling that a slide?",
     "My tiles keep sticking to each other.", "Nobody said anything about a timer.",
     "The caller is very strict today.", "Don't knock the table, please."],
)


def phrase_text(phrase: str, name: str | None) -> str:
    return f"Caller, {phrase}" + (f", {name}" if name else "") + "."


def _said(phrase: str, name: str | None) -> str:
    return phrase + (f" {name}" if name else "")


def phrase_items(cfg: dict) -> list[tuple[str, str | None]]:
    return [("done", None)] + [("done", n) for n in cfg["names"]] + [("repeat", None), ("hint", None), ("pause", None)]


def announcements(seeds) -> list[str]:
    """What the Caller says in a game: setups of every game, verdicts, warnings, scores."""
    import rules
    from voice.phrasebook import easy_slider as es
    from voice.phrasebook import listening
    from voice.phrasebook import setup_lines

    lines: list[str] = []
    for seed in seeds:
        for game in ("easy-slider", "scavenger-hunt", "steppin-stones", "slider", "slide"):
            try:
                lines += setup_lines(game, rules.get(game).setup(seed=seed))
            except Exception:  # a game that needs options to deal: its setup is left out
                pass
        rng = np.random.default_rng(seed)
        lines += [es.go(), es.done(True, float(rng.uniform(20, 400))), es.restored(), es.accepted(),
                  es.fumble([(int(rng.integers(0, 5)), int(rng.integers(0, 5)))]),
                  es.round_scores({"Ann": int(rng.integers(0, 4)), "Bob": int(rng.integers(0, 4))}, seed % 5 + 1),
                  es.remark(int(rng.integers(10, 60)), int(rng.integers(10, 40)))]
        if seed % 10 == 0:  # the answers to hands-free commands, some of which name a command
            lines += [listening.claim(None), listening.claim("Ann"), listening.who_is_done(["Ann", "Bob"]),
                      listening.paused(), listening.resumed(), listening.nothing_to_repeat(), listening.no_hint(),
                      listening.no_hint_in_race()]
    return lines


def noise_bed(seconds: float, cfg: dict, rng: np.random.Generator) -> np.ndarray:
    tiles = synth.tile_noise(seconds, rng)
    talk = synth.babble(seconds, rng, TALK[cfg["talk"]], cfg["voices"])
    return tiles / np.sqrt(synth.power(tiles)) + talk / np.sqrt(synth.power(talk))


def detection_track(cfg: dict, snr: float | None, repeats: int = 1):
    """Phrases at 1.5-3 s gaps over the noise bed: (samples, truth [(end_s, phrase, name)])."""
    rng = np.random.default_rng(cfg["seed"] * 1000 + int(snr or 0))
    clips = []
    for _ in range(repeats):
        for voice in cfg["voices"]:
            for speed in cfg["speeds"]:
                for phrase, name in phrase_items(cfg):
                    x = synth.speak(phrase_text(phrase, name), voice, speed, int(rng.integers(35, 65)))
                    clips.append((x / np.sqrt(synth.power(x)), phrase, name))
    order = rng.permutation(len(clips))
    gaps = rng.uniform(1.5, 3.0, len(clips) + 1)
    total = int((sum(len(clips[i][0]) for i in order) / RATE + gaps.sum()) * RATE)
    speech = np.zeros(total, dtype=np.float32)
    truth, pos = [], int(gaps[0] * RATE)
    for k, i in enumerate(order):
        x, phrase, name = clips[i]
        speech[pos : pos + len(x)] += x
        truth.append(((pos + len(x)) / RATE, phrase, name))
        pos += len(x) + int(gaps[k + 1] * RATE)
    if snr is None:
        return synth.to_int16(speech), truth
    noise = noise_bed(total / RATE, cfg, rng)
    return synth.to_int16(speech + synth.mix_at(np.ones(1), noise, snr)), truth


def speech_track(cfg: dict, minutes: float) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """Non-phrase speech for ``minutes``: the Caller's announcements in its own voice and the
    table talk in the other voices, with short pauses. The samples and the spans (s) of the
    Caller's announcements."""
    rng = np.random.default_rng(cfg["seed"])
    lines = announcements(cfg["fa_seeds"])
    parts, total, callers = [], 0, []
    voices = [CALLER_VOICE] + [(v, s) for v in cfg["voices"] for s in cfg["speeds"]]
    k = 0
    while total < minutes * 60 * RATE:
        if k % 3 == 2:
            text, (voice, speed) = str(rng.choice(TALK[cfg["talk"]])), voices[1 + k % (len(voices) - 1)]
        else:
            text, (voice, speed) = lines[k % len(lines)], CALLER_VOICE
        x = synth.speak(text, voice, speed)
        if voice == CALLER_VOICE[0]:
            callers.append((total / RATE, (total + len(x)) / RATE))
        parts += [x / np.sqrt(synth.power(x)), np.zeros(int(rng.uniform(0.2, 1.2) * RATE), dtype=np.float32)]
        total += len(x) + len(parts[-1])
        k += 1
    return synth.to_int16(np.concatenate(parts)), callers


def muted_seconds(spans, total_s: float) -> float:
    """Seconds of a track of ``total_s`` not listened to when ``spans`` (the Caller speaking,
    in order) are muted, each with MUTE_TAIL_S after it."""
    out, end = 0.0, float("-inf")
    for a, b in spans:
        a, b = max(a, end), min(b + MUTE_TAIL_S, total_s)
        out += max(0.0, b - a)
        end = max(end, b)
    return out


def spot_track(args) -> tuple[list[tuple[float, float, str, str | None, float]], float]:
    """[(reported at, phrase end, phrase, name, score, seconds)] and the wall-clock seconds the
    decoding took. ``args``: samples, names, phone_p, min_score, min_seconds and, optionally,
    the spans (s) not listened to."""
    samples, names, phone_p, min_score, min_seconds, *muted = args
    spans = muted[0] if muted else ()
    spotter = Spotter(names, phone_p=phone_p, min_score=min_score, min_seconds=min_seconds)
    out = []
    start = time.perf_counter()
    for i in range(0, len(samples), CHUNK):
        t = i / RATE  # a chunk read while the Caller speaks is not listened to, as in caller.listening.Ears
        quiet = any(a <= t <= b + MUTE_TAIL_S for a, b in spans)
        for h in (spotter.feed_muted if quiet else spotter.feed)(samples[i : i + CHUNK]):
            out.append((spotter.t, h.t, h.phrase, h.name, h.score, h.seconds))
    for h in spotter.finish():
        out.append((spotter.t, h.t, h.phrase, h.name, h.score, h.seconds))
    return out, time.perf_counter() - start


def score(heard, truth):
    """(hits per truth index with latency, false triggers) matching reported phrases to the truth."""
    hits: dict[int, float] = {}
    false = 0
    for at, _end, phrase, name, *_ in heard:
        match = [i for i, (end, p, n) in enumerate(truth)
                 if i not in hits and p == phrase and n == name and -0.3 <= at - end <= 1.5]
        if match:
            hits[match[0]] = at - truth[match[0]][0]
        else:
            false += 1
    return hits, false


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one SNR, two minutes of speech: a smoke run")
    ap.add_argument("--minutes", type=float, default=10.0, help="minutes of non-phrase speech for false triggers")
    ap.add_argument("--voices", choices=sorted(VOICE_SETS), default="espeak",
                    help="espeak: espeak-ng's formant voices; recorded: Festival and Flite voices built from "
                         "recordings of real speakers")
    ap.add_argument("--phone-p", type=float, default=None, help="skip tuning, measure this threshold")
    ap.add_argument("--min-score", type=float, default=MIN_SCORE,
                    help="with --phone-p: the second look's least score (nats a frame against free phones)")
    ap.add_argument("--min-seconds", type=float, default=MIN_SECONDS,
                    help="with --phone-p: the second look's least length of a phrase (s)")
    ap.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1))
    args = ap.parse_args()
    snrs = (10,) if args.quick else SNRS
    minutes = 2.0 if args.quick else args.minutes
    pool = ProcessPoolExecutor(args.jobs)
    tune, report = VOICE_SETS[args.voices]

    phone_p, min_score, min_seconds = args.phone_p, args.min_score, args.min_seconds
    if phone_p is None:
        phone_p, min_score, min_seconds = tuned(tune, pool, 1.0 if args.quick else 5.0)

    cfg = report
    print(f"report on voices {cfg['voices']} at {cfg['speeds']} wpm, seed {cfg['seed']}, names {cfg['names']}, "
          f"talk set 1, announcements of seeds {cfg['fa_seeds'].start}-{cfg['fa_seeds'].stop - 1}, "
          f"phone_p {phone_p:.0e}, min_score {min_score:.2f}, min_seconds {min_seconds:.2f}", flush=True)
    tracks = [detection_track(cfg, snr) for snr in snrs]
    fa_audio, callers = speech_track(cfg, minutes)
    args_ = (cfg["names"], phone_p, min_score, min_seconds)
    jobs = [(a, *args_) for a, _ in tracks] + [(fa_audio, *args_), (fa_audio, *args_, callers)]
    results = list(pool.map(spot_track, jobs))
    labels = [phrase_text(p, n).rstrip(".") for p, n in phrase_items(cfg)]
    rows = {lab: [] for lab in labels}
    latencies: list[float] = []
    extra = []
    for (audio, truth), (heard, _secs) in zip(tracks, results):
        hits, false = score(heard, truth)
        extra.append(false)
        for lab, (p, n) in zip(labels, phrase_items(cfg)):
            idx = [i for i, (_, tp, tn) in enumerate(truth) if tp == p and tn == n]
            rows[lab].append(f"{sum(1 for i in idx if i in hits)}/{len(idx)}")
        latencies += list(hits.values())
        all_rate = len(hits) / len(truth)
        rows.setdefault("all phrases", []).append(f"{all_rate:.1%}")
    print("\n| phrase | " + " | ".join(f"{s} dB SNR" for s in snrs) + " |")
    print("|---|" + "---|" * len(snrs))
    for lab, vals in rows.items():
        print(f"| {lab} | " + " | ".join(vals) + " |")
    print("| false triggers in the noisy tracks | " + " | ".join(map(str, extra)) + " |")
    total_s = len(fa_audio) / RATE
    (fa_heard, fa_secs), (muted_heard, _) = results[-2], results[-1]
    listened_s = total_s - muted_seconds(callers, total_s)
    lat = np.array(latencies) if latencies else np.zeros(1)
    print(f"\nfalse triggers, the microphone hearing the Caller too: {len(fa_heard)} in {total_s / 60:.1f} min of "
          f"non-phrase speech = {len(fa_heard) / total_s * 3600:.1f} per hour" + _listed(fa_heard))
    print(f"false triggers, the Caller's own words not listened to: {len(muted_heard)} in {listened_s / 60:.1f} min "
          f"listened to = {len(muted_heard) / listened_s * 3600:.1f} per hour" + _listed(muted_heard))
    print(f"latency, phrase end to event: median {np.median(lat):.2f} s, 95th percentile {np.percentile(lat, 95):.2f} s, "
          f"max {lat.max():.2f} s")
    print(f"decoding speed: {fa_secs / total_s:.2f} x real time (one core, {total_s:.0f} s of speech)")
    pool.shutdown()
    return 0


def _listed(heard) -> str:
    return " (" + ", ".join(_said(p, n) for _, _, p, n, *_ in heard) + ")" if heard else ""


def tuned(cfg: dict, pool, minutes: float) -> tuple[float, float, float]:
    """(phone_p, min_score, min_seconds) with the most phrases heard at 10 dB and no false
    trigger in the tuning speech listened to (the Caller's own words not listened to, as in a
    game)."""
    print(f"tuning on voices {cfg['voices']} at {cfg['speeds']} wpm, seed {cfg['seed']}, names {cfg['names']}, "
          f"talk set 0, announcements of seeds {cfg['fa_seeds'].start}-{cfg['fa_seeds'].stop - 1}", flush=True)
    audio, truth = detection_track(cfg, 10)
    fa_audio, callers = speech_track(cfg, minutes)
    hours = (len(fa_audio) / RATE - muted_seconds(callers, len(fa_audio) / RATE)) / 3600
    off = (float("-inf"), 0.0)
    runs = list(pool.map(spot_track, [job for p in CANDIDATES for job in
                                      ((audio, cfg["names"], p, *off), (fa_audio, cfg["names"], p, *off, callers))]))
    print(f"{'phone_p':>8} {'min_score':>9} {'min_seconds':>11} {'detected @10 dB':>16} {'false/h':>8}")
    best = None
    for k, p in enumerate(CANDIDATES):
        heard, fa_heard = runs[2 * k][0], runs[2 * k + 1][0]
        for th in sorted({float("-inf")} | {h[4] for h in fa_heard}):
            for least in sorted({0.0} | {h[5] + 0.01 for h in fa_heard}):
                def kept(hs):
                    return [h for h in hs if h[4] >= th and h[5] >= least]
                hits, _ = score(kept(heard), truth)
                fa = len(kept(fa_heard)) / hours
                rate = len(hits) / len(truth)
                print(f"{p:8.0e} {th:9.2f} {least:11.2f} {rate:16.1%} {fa:8.1f}")
                # the most detections with no false trigger in the tuning speech
                if fa == 0 and (best is None or rate > best[3]):
                    best = (p, th, least, rate)
    phone_p, min_score, min_seconds = best[:3] if best else (PHONE_P, MIN_SCORE, MIN_SECONDS)
    print(f"chosen phone_p = {phone_p:.0e}, min_score = {min_score:.2f}, min_seconds = {min_seconds:.2f} "
          f"(the spotter's defaults: {PHONE_P:.0e}, {MIN_SCORE:.2f}, {MIN_SECONDS:.2f})\n")
    return phone_p, min_score, min_seconds


if __name__ == "__main__":
    raise SystemExit(main())
