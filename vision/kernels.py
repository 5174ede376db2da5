"""The reader's inner loops, compiled with numba (``rules.compiled``).

Each function here works on plain arrays with explicit loops, so that the same source runs
as machine code (normally) or as plain Python (``CALLER_NO_NUMBA=1``, far slower; the tests
check that both agree). They replace chains of many small numpy calls whose per-call cost,
not their arithmetic, was most of the time of a 720p read. The board search: growing a
lattice from a seed tile (about 0.1 ms a seed), the lens search's fits, each quad's
tileness. The rest of a read: the foreground's colour rarity, channel percentiles (white
levels, medians), the faces' ink maps, the gradient histograms' binning, the pawns' colour
statistics and the assignment margins. Each gives the numbers a numpy version would, to
float rounding; ``grow_lattice`` fits linearly (see ``vision.locate._grow_lattice``).

Importing this module imports numba (about half a second): the reader imports it at its
first read, not at ``import vision``.
"""

from __future__ import annotations

import numpy as np

from rules.compiled import compiled


@compiled
def homography_dlt(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """3 x 3 homography mapping n x 2 points ``src`` onto ``dst`` (n >= 4): the normalised
    linear (DLT) least-squares fit (Hartley's normalisation, smallest eigenvector of A^T A);
    NaN where it maps points to infinity (H[2, 2] = 0)."""
    n = src.shape[0]
    T = np.zeros((2, 3, 3))
    pts = np.empty((2, n, 2))
    for s in range(2):
        p = src if s == 0 else dst
        cx = 0.0
        cy = 0.0
        for i in range(n):
            cx += p[i, 0]
            cy += p[i, 1]
        cx /= n
        cy /= n
        d = 0.0
        for i in range(n):
            d += np.sqrt((p[i, 0] - cx) ** 2 + (p[i, 1] - cy) ** 2)
        scale = np.sqrt(2.0) / max(d / n, 1e-12)
        T[s, 0, 0] = scale
        T[s, 1, 1] = scale
        T[s, 0, 2] = -scale * cx
        T[s, 1, 2] = -scale * cy
        T[s, 2, 2] = 1.0
        for i in range(n):
            pts[s, i, 0] = (p[i, 0] - cx) * scale
            pts[s, i, 1] = (p[i, 1] - cy) * scale
    M = np.zeros((9, 9))
    row = np.zeros(9)
    for i in range(n):
        ax, ay, bx, by = pts[0, i, 0], pts[0, i, 1], pts[1, i, 0], pts[1, i, 1]
        for r in range(2):
            row[:] = 0.0
            b = bx if r == 0 else by
            row[3 * r] = ax
            row[3 * r + 1] = ay
            row[3 * r + 2] = 1.0
            row[6] = -b * ax
            row[7] = -b * ay
            row[8] = -b
            for j in range(9):
                for k in range(9):
                    M[j, k] += row[j] * row[k]
    _, vec = np.linalg.eigh(M)
    Hn = np.ascontiguousarray(vec[:, 0]).reshape(3, 3)
    H = np.linalg.inv(T[1]) @ Hn @ T[0]
    if abs(H[2, 2]) < 1e-12:
        return np.full((3, 3), np.nan)
    return H / H[2, 2]


@compiled
def warp_quads(H: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """K x 4 x 2 quads mapped by the homography H. A corner on H's horizon (a quad of a
    lattice grown from a bad seed can land there) maps far away rather than failing."""
    K = quads.shape[0]
    out = np.empty((K, 4, 2))
    for i in range(K):
        for c in range(4):
            x, y = quads[i, c, 0], quads[i, c, 1]
            w = H[2, 0] * x + H[2, 1] * y + H[2, 2]
            if w == 0.0:
                w = 1e-12
            out[i, c, 0] = (H[0, 0] * x + H[0, 1] * y + H[0, 2]) / w
            out[i, c, 1] = (H[1, 0] * x + H[1, 1] * y + H[1, 2]) / w
    return out


@compiled
def _side(w: np.ndarray, i: int, c: int) -> float:
    """Length of side c (corner c to corner c + 1) of quad i of K x 4 x 2 quads."""
    n = (c + 1) % 4
    return np.sqrt((w[i, n, 0] - w[i, c, 0]) ** 2 + (w[i, n, 1] - w[i, c, 1]) ** 2)


@compiled
def grow_lattice(quads: np.ndarray, seed: int, H: np.ndarray, lattice_tol: float):
    """The lattice explained from one seed quad (see ``vision.locate._grow_lattice``).

    ``quads``: K x 4 x 2 candidate corners (image px, float64); ``H``: the seed quad onto the
    unit square. Returns (H to pitch units with the seed at node (0, 0), face fraction,
    K x 2 nodes, K inlier flags). The pitch is first taken from the seed's nearest
    axis-aligned neighbours; then, six times at most, every quad is snapped to its nearest
    node, those within ``lattice_tol`` pitch (more leniently far from the seed) and within a
    radius that grows each round join, and the homography is refitted (linear fit) on their
    corners, each to the nearest corner of its node's face.
    """
    K = quads.shape[0]
    warped = warp_quads(H, quads)
    cen = np.empty((K, 2))
    for i in range(K):
        for a in range(2):
            cen[i, a] = (warped[i, 0, a] + warped[i, 1, a] + warped[i, 2, a] + warped[i, 3, a]) / 4
    # pitch in seed-face units from the nearest axis-aligned neighbours
    near = np.empty(2 * K)
    nn = 0
    for axis in range(2):
        other = 1 - axis
        for i in range(K):
            d_other = abs(cen[i, other] - cen[seed, other])
            d_axis = abs(cen[i, axis] - cen[seed, axis])
            if d_other < 0.35 and d_axis > 0.85 and d_axis < 1.8:
                near[nn] = d_axis
                nn += 1
    pitch = np.median(near[:nn]) if nn > 0 else 1.1
    face = 1.0 / pitch
    # pitch frame: seed tile centre at (0.5, 0.5)
    S = np.zeros((3, 3))
    S[0, 0] = face
    S[1, 1] = face
    S[0, 2] = 0.5 - face / 2
    S[1, 2] = 0.5 - face / 2
    S[2, 2] = 1.0
    H = S @ H
    inl = np.zeros(K, np.bool_)
    prev = np.zeros(K, np.bool_)
    have_prev = False
    nodes = np.zeros((K, 2), np.int64)
    radius = 1.6
    for _ in range(6):
        warped = warp_quads(H, quads)
        for i in range(K):
            for a in range(2):
                cen[i, a] = (warped[i, 0, a] + warped[i, 1, a] + warped[i, 2, a] + warped[i, 3, a]) / 4 - 0.5
                nodes[i, a] = np.int64(np.round(cen[i, a]))
        count = 0
        for i in range(K):
            resid = max(abs(cen[i, 0] - nodes[i, 0]), abs(cen[i, 1] - nodes[i, 1]))
            dist = max(abs(nodes[i, 0] - nodes[seed, 0]), abs(nodes[i, 1] - nodes[seed, 1]))
            side = (_side(warped, i, 0) + _side(warped, i, 1) + _side(warped, i, 2) + _side(warped, i, 3)) / 4
            # far from the seed the local fit has not yet seen the lens: more lenient there
            tol = lattice_tol * (1.0 + 0.15 * max(dist - 1, 0))
            inl[i] = resid < min(tol, 0.4) and dist <= radius and 0.6 * face < side < 1.5 * face
            count += inl[i]
        if count < 2:
            radius += 1.0
            continue
        if radius >= 6 and have_prev and np.all(prev == inl):
            break
        prev[:] = inl
        have_prev = True
        src = np.empty((4 * count, 2))
        dst = np.empty((4 * count, 2))
        k = 0
        for i in range(K):
            if inl[i]:
                for c in range(4):
                    # each corner to the nearest corner of its node's face, whichever corner
                    # the image order starts from
                    src[k, 0] = quads[i, c, 0]
                    src[k, 1] = quads[i, c, 1]
                    for a in range(2):
                        sign = 1.0 if warped[i, c, a] >= nodes[i, a] + 0.5 else -1.0
                        dst[k, a] = nodes[i, a] + 0.5 + sign * (face / 2)
                    k += 1
        fitted = homography_dlt(src, dst)
        if np.isnan(fitted[0, 0]):
            break
        H = fitted
        # refine the face fraction from the fitted tiles' sizes
        w2 = warp_quads(H, quads)
        sides = np.empty(4 * count)
        k = 0
        for i in range(K):
            if inl[i]:
                for c in range(4):
                    sides[k] = _side(w2, i, c)
                    k += 1
        face = min(max(np.median(sides), 0.6), 1.0)
        radius = min(radius + 1.5, 6.0)
    return H, face, nodes, inl


@compiled
def lens_costs(x: np.ndarray, dst: np.ndarray, cen_x: np.ndarray, cen_dst: np.ndarray, lams: np.ndarray) -> np.ndarray:
    """For each lens distortion in ``lams``: undistort the normalised points ``x`` (division
    model, see ``vision.locate.undistort``), fit the linear homography onto ``dst``, and
    return the RMS distance (pitches) of the undistorted, mapped ``cen_x`` from ``cen_dst``
    (1e9 where no fit exists). The lens search of ``vision.locate.fit_distortion``."""
    out = np.empty(len(lams))
    u = np.empty_like(x)
    for j in range(len(lams)):
        lam = lams[j]
        for i in range(x.shape[0]):
            f = 1.0 + lam * (x[i, 0] * x[i, 0] + x[i, 1] * x[i, 1])
            u[i, 0] = x[i, 0] / f
            u[i, 1] = x[i, 1] / f
        H = homography_dlt(u, dst)
        if np.isnan(H[0, 0]):
            out[j] = 1e9
            continue
        total = 0.0
        for i in range(cen_x.shape[0]):
            f = 1.0 + lam * (cen_x[i, 0] * cen_x[i, 0] + cen_x[i, 1] * cen_x[i, 1])
            px, py = cen_x[i, 0] / f, cen_x[i, 1] / f
            w = H[2, 0] * px + H[2, 1] * py + H[2, 2]
            dx = (H[0, 0] * px + H[0, 1] * py + H[0, 2]) / w - cen_dst[i, 0]
            dy = (H[1, 0] * px + H[1, 1] * py + H[1, 2]) / w - cen_dst[i, 1]
            total += dx * dx + dy * dy
        out[j] = np.sqrt(total / cen_x.shape[0])
    return out


@compiled
def channel_percentiles(pixels: np.ndarray, q: float) -> np.ndarray:
    """N x 3 float32: the q-th percentile of each channel of N x P x 3 uint8 pixels,
    interpolated between order statistics as ``np.percentile`` does (from 256-bin counts)."""
    N, P = pixels.shape[0], pixels.shape[1]
    pos = q / 100 * (P - 1)
    lo = int(np.floor(pos))
    hi = min(lo + 1, P - 1)
    frac = pos - lo
    out = np.empty((N, 3), np.float32)
    counts = np.empty(256, np.int64)
    for i in range(N):
        for c in range(3):
            counts[:] = 0
            for p in range(P):
                counts[pixels[i, p, c]] += 1
            # the k-th smallest value (from 0): the first whose cumulative count passes k
            run = 0
            a = -1
            b = -1
            for v in range(256):
                run += counts[v]
                if a < 0 and run > lo:
                    a = v
                if run > hi:
                    b = v
                    break
            out[i, c] = np.float32(a + (b - a) * frac)
    return out


@compiled
def direction_histograms(mag: np.ndarray, ang: np.ndarray, cells: int, bins: int) -> np.ndarray:
    """N x (cells * cells * bins) float64: per cell of a cells x cells grid over each N x s x s
    map, the gradient magnitudes ``mag`` added to the two nearest of ``bins`` signed
    directions of ``ang`` (radians), linearly (``vision.features.gradient_histograms``)."""
    N, s = mag.shape[0], mag.shape[1]
    size = cells * cells * bins
    low = np.zeros((N, size))
    high = np.zeros((N, size))
    scale = np.float32(bins / (2 * np.pi))
    for i in range(N):
        for y in range(s):
            cy = min(y * cells // s, cells - 1)
            for x in range(s):
                cx = min(x * cells // s, cells - 1)
                pos = ang[i, y, x] * scale - np.float32(0.5)
                lo = np.floor(pos)
                hi_w = (pos - lo) * mag[i, y, x]
                b = int(lo) % bins
                base = (cy * cells + cx) * bins
                low[i, base + b] += mag[i, y, x] - hi_w
                high[i, base + (b + 1) % bins] += hi_w
    return low + high


@compiled
def ink_maps(crops: np.ndarray, white: np.ndarray):
    """For N x s x s x 3 uint8 face crops and their N x 3 white levels: (each pixel over its
    crop's white, N x s x s x 3; its brightness, the mean of the three; the ink, 1 - brightness
    held to [0, 1]; the ink weight, (ink - 0.12) / 0.25 held to [0, 1]), all float32, as
    ``vision.features.tile_features`` takes them."""
    N, s = crops.shape[0], crops.shape[1]
    n = np.empty((N, s, s, 3), np.float32)
    lum = np.empty((N, s, s), np.float32)
    dark = np.empty((N, s, s), np.float32)
    weight = np.empty((N, s, s), np.float32)
    one, zero, three = np.float32(1.0), np.float32(0.0), np.float32(3.0)
    for i in range(N):
        ref = np.empty(3, np.float32)
        for c in range(3):
            ref[c] = max(white[i, c], np.float32(8.0))
        for y in range(s):
            for x in range(s):
                b = np.float32(crops[i, y, x, 0]) / ref[0]
                g = np.float32(crops[i, y, x, 1]) / ref[1]
                r = np.float32(crops[i, y, x, 2]) / ref[2]
                n[i, y, x, 0] = b
                n[i, y, x, 1] = g
                n[i, y, x, 2] = r
                v = (b + g + r) / three
                lum[i, y, x] = v
                d = min(max(one - v, zero), one)
                dark[i, y, x] = d
                weight[i, y, x] = min(max((d - np.float32(0.12)) / np.float32(0.25), zero), one)
    return n, lum, dark, weight


@compiled
def exchange_margins(cost: np.ndarray, labels: np.ndarray, forbidden: float) -> np.ndarray:
    """Per-row margins of the optimal assignment ``labels`` over ``cost`` (R x L), from the
    shortest chains of label exchanges (see ``vision.assign.margins``)."""
    R, L = cost.shape
    own = np.empty(R)
    for a in range(R):
        own[a] = cost[a, labels[a]]
    held = np.zeros(L, np.bool_)
    for a in range(R):
        held[labels[a]] = True
    free = np.full(R, np.inf)  # a row's cheapest label nobody holds, less its own
    for a in range(R):
        for j in range(L):
            if not held[j]:
                free[a] = min(free[a], cost[a, j] - own[a])
    # e[a, b]: row a taking row b's label; d: the cheapest chains (Floyd-Warshall)
    e = np.empty((R, R))
    for a in range(R):
        for b in range(R):
            e[a, b] = np.inf if a == b else cost[a, labels[b]] - own[a]
    d = e.copy()
    for a in range(R):
        d[a, a] = 0.0
    for k in range(R):
        for a in range(R):
            dak = d[a, k]
            for b in range(R):
                if dak + d[k, b] < d[a, b]:
                    d[a, b] = dak + d[k, b]
    end = np.full(R, np.inf)  # from each row, the cheapest chain ending on a free label
    into = np.full(R, np.inf)  # the cheapest chain ending on each row
    for a in range(R):
        for b in range(R):
            end[a] = min(end[a], d[a, b] + free[b])
            into[b] = min(into[b], d[a, b])
    out = np.empty(R)
    for i in range(R):
        cycle = np.inf
        leave = free[i]
        for j in range(R):
            cycle = min(cycle, e[i, j] + d[j, i])
            leave = min(leave, e[i, j] + end[j])
        out[i] = max(0.0, min(cycle, into[i] + leave, forbidden - own[i]))
    return out


@compiled
def _colour_bin(canvas: np.ndarray, y: int, x: int) -> int:
    """A pixel's colour bin, 3 bits a channel (b << 6 | g << 3 | r), in integers (a uint8
    times 64 would wrap around in plain Python)."""
    return (int(canvas[y, x, 0]) >> 5) * 64 + (int(canvas[y, x, 1]) >> 5) * 8 + (int(canvas[y, x, 2]) >> 5)


@compiled
def colour_rarity(canvas: np.ndarray, inner: int) -> np.ndarray:
    """S x S float32: 1 where a canvas pixel's colour bin (3 bits a channel) holds under 0.3%
    of the pixels of the outer margin (those less than ``inner`` px from an edge), else 0:
    a colour the table never shows (``vision.orientation.foreground``, before its blur)."""
    S = canvas.shape[0]
    hist = np.zeros(512, np.int64)
    n = 0
    for y in range(S):
        edge_row = y < inner or y >= S - inner
        for x in range(S):
            if edge_row or x < inner or x >= S - inner:
                hist[_colour_bin(canvas, y, x)] += 1
                n += 1
    rare = np.empty(512, np.float32)
    for i in range(512):
        rare[i] = 1.0 if hist[i] < 0.003 * n else 0.0
    out = np.empty((S, S), np.float32)
    for y in range(S):
        for x in range(S):
            out[y, x] = rare[_colour_bin(canvas, y, x)]
    return out


@compiled
def tileness(gray: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """How much each quad (K x 4 x 2, clockwise from the top-left) looks like a tile face
    (``vision.locate._tileness``): from 14 x 14 grey samples (nearest pixel, the inner ones
    of a 16 x 16 bilinear grid over the quad), ink is what is darker than 0.72 of the 75th
    percentile; a face has ink in a corner (the suit symbol), a little ink over all (1-40%)
    and a flat paper (its spread over the percentile at most 0.12)."""
    K = quads.shape[0]
    H, W = gray.shape[0], gray.shape[1]
    n, m = 16, 14
    b = int(round(m * 0.33))
    out = np.empty(K)
    patch = np.empty((m, m), np.float32)
    flat = np.empty(m * m, np.float32)
    for q in range(K):
        for i in range(m):
            v = np.float32((i + 1 + 0.5) / n)
            for j in range(m):
                u = np.float32((j + 1 + 0.5) / n)
                w0 = (np.float32(1) - u) * (np.float32(1) - v)
                w1 = u * (np.float32(1) - v)
                w2 = u * v
                w3 = (np.float32(1) - u) * v
                px = w0 * quads[q, 0, 0] + w1 * quads[q, 1, 0] + w2 * quads[q, 2, 0] + w3 * quads[q, 3, 0]
                py = w0 * quads[q, 0, 1] + w1 * quads[q, 1, 1] + w2 * quads[q, 2, 1] + w3 * quads[q, 3, 1]
                x = min(max(int(np.rint(px)), 0), W - 1)
                y = min(max(int(np.rint(py)), 0), H - 1)
                patch[i, j] = gray[y, x]
                flat[i * m + j] = gray[y, x]
        srt = np.sort(flat)
        pos = 0.75 * (m * m - 1)
        lo = int(np.floor(pos))
        bright = srt[lo] + (srt[lo + 1] - srt[lo]) * np.float32(pos - lo)
        bar = np.float32(0.72) * bright
        n_ink = 0
        corner = np.zeros(4)
        paper_sum = 0.0
        for i in range(m):
            for j in range(m):
                if patch[i, j] < bar:
                    n_ink += 1
                    if i < b and j < b:
                        corner[0] += 1
                    if i < b and j >= m - b:
                        corner[1] += 1
                    if i >= m - b and j < b:
                        corner[2] += 1
                    if i >= m - b and j >= m - b:
                        corner[3] += 1
                else:
                    paper_sum += patch[i, j]
        n_paper = m * m - n_ink
        if n_paper > 0:
            mean = paper_sum / n_paper
            dev = 0.0
            for i in range(m):
                for j in range(m):
                    if patch[i, j] >= bar:
                        dev += (patch[i, j] - mean) ** 2
            spread = np.sqrt(dev / n_paper) / max(bright, 1.0)
        else:
            spread = 1.0
        ink_frac = n_ink / (m * m)
        score = min(corner.max() / (b * b) / 0.06, 2.0) + (0.5 if 0.01 < ink_frac < 0.4 else -2.0)
        score -= max(0.0, spread - 0.12) * 10
        if bright < 25:
            score = -1.0
        out[q] = score - 1.0
    return out


@compiled
def pawn_statistics(raw: np.ndarray, fg: np.ndarray, ref: np.ndarray, nb: int) -> np.ndarray:
    """Per pawn slot, the colour statistics of ``vision.features.pawn_features``.

    ``raw``: S x P x 3 uint8 slot pixels; ``fg``: S x P float32 foreground; ``ref``: the
    paper's BGR (float32). Returns S x (15 + nb * nb): the mean colour over paper of the
    most colourful half of the selected pixels (3), that less its brightness, times 3 (3),
    its brightness, the median and spread of the selection's brightness, the selection's
    25th and 75th percentiles per channel (3 + 3), and the square roots of the shares of a
    foreground-weighted histogram of the slot's opponent colours (blue - red, green -
    magenta, nb x nb bins over [-0.4, 0.4], the upper edges in the last bin). The selection
    is the foreground (over 0.5), or where that is under 4% of the slot the 12% of pixels
    least like the slot's median.
    """
    S, P = fg.shape[0], fg.shape[1]
    reach = 0.4
    out = np.zeros((S, 15 + nb * nb))
    pix = np.empty((P, 3), np.float32)
    for r in range(S):
        sel = np.empty(P, np.bool_)
        n = 0
        for i in range(P):
            sel[i] = fg[r, i] > 0.5
            n += sel[i]
            for c in range(3):
                pix[i, c] = np.float32(raw[r, i, c]) / ref[c]
        if n < 0.04 * P:
            # the table shares the pawn's colours: take what is least like the slot's usual colour
            med = np.empty(3, np.float32)
            for c in range(3):
                med[c] = np.median(pix[:, c])
            dist = np.empty(P, np.float32)
            for i in range(P):
                dist[i] = abs(pix[i, 0] - med[0]) + abs(pix[i, 1] - med[1]) + abs(pix[i, 2] - med[2])
            bar = np.percentile(dist, 88)
            n = 0
            for i in range(P):
                sel[i] = dist[i] >= bar
                n += sel[i]
        lum = np.empty(n, np.float32)
        sat = np.empty(n, np.float32)
        where = np.empty(n, np.int64)
        k = 0
        for i in range(P):
            if sel[i]:
                lum[k] = (pix[i, 0] + pix[i, 1] + pix[i, 2]) / np.float32(3)
                sat[k] = abs(pix[i, 0] - lum[k]) + abs(pix[i, 1] - lum[k]) + abs(pix[i, 2] - lum[k])
                where[k] = i
                k += 1
        # the most colourful half of the piece: its lit side, not its shadow
        half = np.median(sat)
        top = np.zeros(3)
        top_lum = 0.0
        n_top = 0
        lum_sum = 0.0
        for k in range(n):
            lum_sum += lum[k]
            if sat[k] >= half:
                for c in range(3):
                    top[c] += pix[where[k], c]
                top_lum += lum[k]
                n_top += 1
        lum_mean = lum_sum / n
        spread = 0.0
        for k in range(n):
            spread += (lum[k] - lum_mean) ** 2
        for c in range(3):
            out[r, c] = top[c] / n_top
            out[r, 3 + c] = (top[c] / n_top - top_lum / n_top) * 3.0
        out[r, 6] = top_lum / n_top
        out[r, 7] = np.median(lum)
        out[r, 8] = np.sqrt(spread / n)
        values = np.empty(n, np.float64)
        for c in range(3):
            for k in range(n):
                values[k] = raw[r, where[k], c]
            out[r, 9 + c] = np.percentile(values, 25) / ref[c]
            out[r, 12 + c] = np.percentile(values, 75) / ref[c]
        # the foreground's opponent colours (uniform weights where the slot has almost none)
        weight = 0.0
        for i in range(P):
            weight += fg[r, i]
        hist = np.zeros(nb * nb)
        for i in range(P):
            a = np.float64(pix[i, 0] - pix[i, 2])
            b = np.float64(pix[i, 1] - (pix[i, 0] + pix[i, 2]) / np.float32(2))
            if -reach <= a <= reach and -reach <= b <= reach:
                ia = min(int((a + reach) * (nb / (2 * reach))), nb - 1)
                ib = min(int((b + reach) * (nb / (2 * reach))), nb - 1)
                hist[ia * nb + ib] += fg[r, i] if weight >= 1 else 1.0
        total = hist.sum() + 1e-6
        for j in range(nb * nb):
            out[r, 15 + j] = np.sqrt(hist[j] / total)
    return out


def warm_up() -> None:
    """Load (or, on a fresh install, compile) every kernel now, not at the first read."""
    quads = np.array([[[c + 0.1 * r, r], [c + 0.9, r], [c + 0.9, r + 0.9], [c, r + 0.9]]
                      for r in range(3) for c in range(3)], np.float64) * 50.0
    grow_lattice(quads, 4, np.eye(3) / 50.0, 0.22)
    pts = quads.reshape(-1, 2) / 200.0
    lens_costs(pts, pts * 2.0, pts[:4].copy(), pts[:4] * 2.0, np.array([-0.1, 0.0]))
    gray = np.random.default_rng(0).integers(0, 256, (200, 200)).astype(np.uint8)
    tileness(gray, quads.astype(np.float32))
    channel_percentiles(np.dstack([gray] * 3)[:4], 90.0)
    ink_maps(np.dstack([gray] * 3)[None, :8, :8].copy(), np.full((1, 3), 200.0, np.float32))
    direction_histograms(np.ones((2, 8, 8), np.float32), np.ones((2, 8, 8), np.float32), 4, 16)
    exchange_margins(np.array([[0.0, 3.0, 1.0], [2.0, 0.0, 4.0]]), np.array([0, 1]), 1e6)
    colour_rarity(np.dstack([gray] * 3), 20)
    rng = np.random.default_rng(1)
    pawn_statistics(rng.integers(0, 256, (2, 60, 3)).astype(np.uint8), rng.random((2, 60)).astype(np.float32),
                    np.full(3, 200.0, np.float32), 5)
