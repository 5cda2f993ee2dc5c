"""Compiled kernels (numba) for the loops that vectorisation cannot flatten.

Imported lazily by the modules that use them, so that ``import credalbook`` and the
classifiers' modules do not pay numba's import; compiled code is cached on disk
(``cache=True``), so a process compiles a kernel once per version of this file. Every kernel
does integer counting or the same floating-point operations in the same order as the NumPy
code it replaces, so results are identical.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from credalbook.discrete import MISSING

__all__ = ["distance_histograms", "add_shells", "row_sizes", "size_hit_counts", "row_sum", "checked_hellinger",
           "merge_by_score"]


@njit(cache=True, nogil=True)
def distance_histograms(distances, d):  # pragma: no cover - compiled
    """(b, d + 1) int64: how many training instances lie at each overlap distance 0..d of each query."""
    out = np.zeros((distances.shape[0], d + 1), dtype=np.int64)
    for q in range(distances.shape[0]):
        for j in range(distances.shape[1]):
            out[q, distances[q, j]] += 1
    return out


@njit(cache=True, nogil=True)
def add_shells(distances, rows, inner, outer, X, y, queries, class_counts, matches, missing):  # pragma: no cover - compiled
    """Add to the NCC counts of each query ``rows[k]`` its training instances at distance in (inner[k], outer[k]].

    ``distances`` (b, n) overlap distances of the queries to the training instances ``X`` (n, d)
    with classes ``y``; the counts (b, K), (b, d, K), (b, d, K) are n(c), n(x_i = q_i, c) and the
    number of instances of class c whose feature i is missing (LNCC, Zaffalon, Corani & Mauá 2012 §9.2).
    """
    n, d = X.shape
    for k in range(rows.size):
        q = rows[k]
        for j in range(n):
            distance = distances[q, j]
            if distance <= inner[k] or distance > outer[k]:
                continue
            c = y[j]
            class_counts[q, c] += 1.0
            for i in range(d):
                value = X[j, i]
                if value == MISSING:
                    missing[q, i, c] += 1.0
                elif value == queries[q, i]:
                    matches[q, i, c] += 1.0


@njit(cache=True, nogil=True, inline="always")
def _ones(word):  # pragma: no cover - compiled
    """How many of the eight bytes of ``word`` are 1 (bytes 0/1: their sum, by one multiplication)."""
    return np.int64((word * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True, inline="always")
def _ones_before(end, words, tail, done, counted):  # pragma: no cover - compiled
    """The ones before byte offset ``end`` of a 0/1 byte matrix read eight bytes at a time: those of
    the whole words before it (counted from word ``done`` on, ``counted`` so far) plus those of the
    leading bytes of its word. Returns (ones before ``end``, words counted, ones in them)."""
    word_index, offset = end >> 3, end & 7
    while done < word_index:
        counted += _ones(words[done])
        done += 1
    before = counted
    if offset:
        word = words[word_index] if word_index < words.size else tail
        before += _ones(word & ((np.uint64(1) << np.uint64(8 * offset)) - np.uint64(1)))
    return before, done, counted


@njit(cache=True, nogil=True)
def row_sizes(words, tail, k, out):  # pragma: no cover - compiled
    """Fill ``out`` (n,) with the number of 1 bytes in each row of K bytes of a 0/1 byte matrix.

    The matrix's bytes are read eight at a time: ``words`` (its first ⌊nK/8⌋ words, uint64)
    and ``tail`` (the last nK mod 8 bytes as one word). A row's size is the number of ones
    before its end minus that before its start; the ones before a byte offset are those of the
    whole words before it plus those of the leading bytes of its word.
    """
    done = 0            # whole words counted
    counted = 0         # ones in them
    previous = 0        # ones before the current row
    for i in range(out.size):
        before, done, counted = _ones_before((i + 1) * k, words, tail, done, counted)
        out[i] = before - previous
        previous = before


@njit(cache=True, nogil=True)
def size_hit_counts(words, tail, matrix, labels, k):  # pragma: no cover - compiled
    """(K + 1, 2) int64: instances by set size 0..K and by whether the set holds the label.

    One pass over the (n K,) flat 0/1 bytes ``matrix``: each row's size as in :func:`row_sizes`
    (``words`` and ``tail`` are its bytes eight at a time) and its byte at the label. ``labels``
    (n,) are class indices already checked to lie in 0..K-1. Every set measure of Zaffalon,
    Corani & Mauá (2012) depends on an instance through abs(Y) and 1[y ∈ Y] only, so its mean is
    a weighted sum of these counts.
    """
    counts = np.zeros((k + 1, 2), dtype=np.int64)
    done = 0
    counted = 0
    previous = 0
    for i in range(labels.size):
        before, done, counted = _ones_before((i + 1) * k, words, tail, done, counted)
        counts[before - previous, matrix[i * k + labels[i]]] += 1
        previous = before
    return counts


@njit(cache=True, nogil=True)
def _block_sum(a, start, n):  # pragma: no cover - compiled
    """NumPy's pairwise summation of a block of at most 128 values: eight partial sums, then the rest."""
    if n < 8:
        total = 0.0
        for i in range(start, start + n):
            total += a[i]
        return total
    r0, r1, r2, r3 = a[start], a[start + 1], a[start + 2], a[start + 3]
    r4, r5, r6, r7 = a[start + 4], a[start + 5], a[start + 6], a[start + 7]
    i = 8
    while i < n - n % 8:
        r0 += a[start + i]
        r1 += a[start + i + 1]
        r2 += a[start + i + 2]
        r3 += a[start + i + 3]
        r4 += a[start + i + 4]
        r5 += a[start + i + 5]
        r6 += a[start + i + 6]
        r7 += a[start + i + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        total += a[start + i]
        i += 1
    return total


@njit(cache=True, nogil=True)
def _pairwise_sum(a, start, n):  # pragma: no cover - compiled
    """NumPy's pairwise summation of a[start:start + n] (``pairwise_sum`` in its loops), so that a sum here is
    bit-identical to NumPy's: blocks of at most 128 values, halves (multiples of 8) added as a binary tree.
    Written with an explicit stack (numba cannot cache a recursive function)."""
    if n <= 128:
        return _block_sum(a, start, n)
    starts, sizes, combine = np.empty(128, np.int64), np.empty(128, np.int64), np.empty(128, np.bool_)
    values = np.empty(128)
    top, depth = 0, 0
    starts[0], sizes[0], combine[0] = start, n, False
    while top >= 0:
        s, m, joining = starts[top], sizes[top], combine[top]
        top -= 1
        if joining:
            depth -= 1
            values[depth - 1] += values[depth]
        elif m <= 128:
            values[depth] = _block_sum(a, s, m)
            depth += 1
        else:
            half = m // 2
            half -= half % 8
            starts[top + 1], sizes[top + 1], combine[top + 1] = 0, 0, True
            starts[top + 2], sizes[top + 2], combine[top + 2] = s + half, m - half, False
            starts[top + 3], sizes[top + 3], combine[top + 3] = s, half, False
            top += 3
    return values[0]


@njit(cache=True, nogil=True)
def row_sum(row):  # pragma: no cover - compiled
    """``row.sum()`` of a contiguous 1-d float64 row, bit-identical to NumPy's (also to ``array.sum(axis=1)``)."""
    return _pairwise_sum(row, 0, row.size)


@njit(cache=True, nogil=True)
def checked_hellinger(q, y, atol, phi):  # pragma: no cover - compiled
    """Fill ``phi`` (n,) with 1 − H(t_i, q_i), H the Hellinger distance between the one-hot truth and
    the probabilities clipped to [0, 1], after checking every row as
    :func:`credalbook._validation.check_probabilities` does; False at the first row that fails.

    One pass over ``q`` (n, K) float64 instead of NumPy's validation passes, clipped copy and
    Hellinger passes; every float operation is NumPy's, in its order (Aguilar-Ruiz & Michalak 2022).
    """
    n, k = q.shape
    squares = np.empty(k)
    low, high = -atol, 1.0 + atol
    for i in range(n):
        bad = False
        for j in range(k):  # branch-free, so that it vectorises; NaN and ±inf fail (inf - inf is NaN)
            value = q[i, j]
            bad |= not (value >= low and value <= high and value - value == 0.0)
        if bad or abs(_row_sum(q[i], k) - 1.0) > atol:
            return False
        label = y[i]
        for j in range(k):
            root = np.sqrt(min(max(q[i, j], 0.0), 1.0))
            if j == label:
                root = 1.0 - root
            squares[j] = root * root
        phi[i] = 1.0 - np.sqrt(_row_sum(squares, k)) / np.sqrt(2.0)
    return True


@njit(cache=True, nogil=True, inline="always")
def _row_sum(row, k):  # pragma: no cover - compiled
    """:func:`row_sum` of a row of ``k`` values, the block sum inlined for the usual k <= 128."""
    return _block_sum(row, 0, k) if k <= 128 else _pairwise_sum(row, 0, k)


@njit(cache=True, nogil=True)
def merge_by_score(scores, starts, out_scores, out_labels):  # pragma: no cover - compiled
    """Merge K runs of ascending ``scores`` (run c, of class c, from ``starts[c]`` to ``starts[c + 1]``) into
    ascending order, ties by class: the order of ``np.lexsort((labels, scores))`` (the IMCP curve's)."""
    k = starts.size - 1
    heads = starts[:-1].copy()
    for position in range(out_scores.size):
        best = -1
        for c in range(k):
            if heads[c] < starts[c + 1] and (best < 0 or scores[heads[c]] < scores[heads[best]]):
                best = c
        out_scores[position] = scores[heads[best]]
        out_labels[position] = best
        heads[best] += 1
