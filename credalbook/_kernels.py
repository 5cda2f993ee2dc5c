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

__all__ = ["distance_histograms", "row_sizes", "size_hit_counts", "row_sum", "checked_hellinger",
           "sort_by_score_and_label"]


@njit(cache=True, nogil=True)
def distance_histograms(distances, d):  # pragma: no cover - compiled
    """(b, d + 1) int64: how many training instances lie at each overlap distance 0..d of each query."""
    out = np.zeros((distances.shape[0], d + 1), dtype=np.int64)
    for q in range(distances.shape[0]):
        for j in range(distances.shape[1]):
            out[q, distances[q, j]] += 1
    return out


@njit(cache=True, nogil=True)
def row_sizes(matrix, out):  # pragma: no cover - compiled
    """Fill ``out`` (n,) with the number of ones in each row of the (n, K) 0/1 byte matrix ``matrix``."""
    n, k = matrix.shape
    for i in range(n):
        size = 0
        for j in range(k):
            size += matrix[i, j]
        out[i] = size


@njit(cache=True, nogil=True)
def size_hit_counts(matrix, labels):  # pragma: no cover - compiled
    """(K + 1, 2) int64: instances by set size 0..K and by whether the set holds the label.

    One pass over the (n, K) 0/1 byte ``matrix``: each row's size and its byte at the label;
    ``labels`` (n,) are class indices already checked to lie in 0..K-1. Four interleaved tallies
    keep consecutive rows from waiting on the same counter. Every set measure of Zaffalon,
    Corani & Mauá (2012) depends on an instance through abs(Y) and 1[y ∈ Y] only, so its mean is
    a weighted sum of these counts.
    """
    n, k = matrix.shape
    tallies = np.zeros((4, k + 1, 2), dtype=np.int64)
    for i in range(n):
        size = 0
        for j in range(k):
            size += matrix[i, j]
        tallies[i & 3, size, matrix[i, labels[i]]] += 1
    return tallies[0] + tallies[1] + tallies[2] + tallies[3]


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
def sort_by_score_and_label(scores, labels, k, out_scores, out_labels):  # pragma: no cover - compiled
    """Fill ``out_scores`` and ``out_labels`` with ``scores`` (n,) in ascending order, ties by ``labels``
    (n,) in 0..K-1: the order of ``np.lexsort((labels, scores))`` (the IMCP curve's).

    A counting sort by label, then a stable least-significant-digit radix sort on the scores' bytes,
    each score's bits mapped to an unsigned key in the floats' order (sign bit flipped for the
    non-negative, all bits for the negative: a Hellinger score can round to just below 0; -0.0
    taken as 0.0, which it equals, and written back as 0.0). The eight byte histograms are taken
    in the first pass; a byte that is the same for every key is skipped.
    """
    n = scores.size
    starts = np.zeros(k + 1, dtype=np.int64)
    for i in range(n):
        starts[labels[i] + 1] += 1
    for c in range(k):
        starts[c + 1] += starts[c]
    keys = np.empty(n, dtype=np.uint64)
    tags = np.empty(n, dtype=np.int64)
    bits = scores.view(np.uint64)
    sign = np.uint64(1) << np.uint64(63)
    histograms = np.zeros((8, 256), dtype=np.int64)
    for i in range(n):
        c = labels[i]
        at = starts[c]
        key = bits[i]
        if key == sign:         # -0.0
            key = np.uint64(0)
        key = ~key if key & sign else key | sign
        keys[at] = key
        tags[at] = c
        starts[c] = at + 1
        for byte in range(8):
            histograms[byte, np.int64((key >> np.uint64(8 * byte)) & np.uint64(255))] += 1
    spare_keys = np.empty(n, dtype=np.uint64)
    spare_tags = np.empty(n, dtype=np.int64)
    for byte in range(8):
        if histograms[byte].max() == n:
            continue
        first = 0
        for value in range(256):
            count = histograms[byte, value]
            histograms[byte, value] = first
            first += count
        shift = np.uint64(8 * byte)
        for i in range(n):
            value = np.int64((keys[i] >> shift) & np.uint64(255))
            at = histograms[byte, value]
            spare_keys[at] = keys[i]
            spare_tags[at] = tags[i]
            histograms[byte, value] = at + 1
        keys, spare_keys = spare_keys, keys
        tags, spare_tags = spare_tags, tags
    for i in range(n):
        key = keys[i]
        keys[i] = key ^ sign if key & sign else ~key
    out_scores[:] = keys.view(np.float64)
    out_labels[:] = tags


@njit(cache=True, nogil=True)
def idm_water_levels(counts, s):  # pragma: no cover - compiled
    """Water filling of each row of non-negative ``counts`` (R, K) with ``s > 0`` (Abellán & Moral 2003,
    Section 3): the level ``h`` such that :math:`p_k = \\max(n_k, h)/(N + s)`, found with the operations of
    :func:`credalbook.classifiers.credal_tree.idm_max_entropy_distribution` in the same order (the sorted
    counts summed in order, the first level ``(sum + s) / j`` not above the next count, ``N`` summed as
    NumPy sums a row), and the row's distinct probabilities: ``points[ptr[r]]`` is ``h / (N + s)``, then
    ``n_k / (N + s)`` for each class with ``n_k > h``, in class order. Returns ``(levels, ptr, points)``.

    The counts are sorted only where positive: the levels ``s / j`` of the zeros before the last zero never
    stop the filling (they exceed the next count, 0, when ``s / K > 0``).
    """
    r_count, k = counts.shape
    levels = np.empty(r_count)
    denominators = np.empty(r_count)
    ptr = np.zeros(r_count + 1, dtype=np.int64)
    positives = np.empty(k)
    skip_zeros = s / k > 0.0
    for r in range(r_count):
        m = 0
        for c in range(k):
            value = counts[r, c]
            if value > 0.0:
                at = m
                while at > 0 and positives[at - 1] > value:
                    positives[at] = positives[at - 1]
                    at -= 1
                positives[at] = value
                m += 1
        zeros = k - m
        h = ((0.0 if zeros else positives[0]) + s) / 1  # np.argmax of no True is the first level
        first = zeros - 1 if skip_zeros and zeros > 0 else 0
        cumulative = 0.0
        for j in range(first, k):
            cumulative += 0.0 if j < zeros else positives[j - zeros]
            level = (cumulative + s) / (j + 1)
            if j + 1 == k:
                upper = np.inf
            else:
                upper = 0.0 if j + 1 < zeros else positives[j + 1 - zeros]
            if level <= upper:
                h = level
                break
        levels[r] = h
        denominators[r] = _pairwise_sum(counts[r], 0, k) + s
        above = 0
        for c in range(k):
            if counts[r, c] > h:
                above += 1
        ptr[r + 1] = ptr[r] + 1 + above
    points = np.empty(ptr[-1])
    for r in range(r_count):
        points[ptr[r]] = levels[r] / denominators[r]
        j = ptr[r] + 1
        for c in range(k):
            if counts[r, c] > levels[r]:
                points[j] = counts[r, c] / denominators[r]
                j += 1
    return levels, ptr, points


@njit(cache=True, nogil=True)
def idm_entropy_sums(counts, levels, ptr, terms):  # pragma: no cover - compiled
    """(R,) the maximum entropies of the rows of ``counts`` (R, K) from :func:`idm_water_levels`'s
    ``levels`` and ``ptr`` and the entropy terms ``terms`` of its points: each class takes its own point's
    term if above the level, the level's otherwise, and the row is summed as NumPy sums a row (the
    :math:`H^*` of Abellán & Moral 2003, Section 3)."""
    r_count, k = counts.shape
    out = np.empty(r_count)
    row = np.empty(k)
    for r in range(r_count):
        j = ptr[r] + 1
        for c in range(k):
            if counts[r, c] > levels[r]:
                row[c] = terms[j]
                j += 1
            else:
                row[c] = terms[ptr[r]]
        out[r] = _pairwise_sum(row, 0, k)
    return out


@njit(cache=True, nogil=True)
def cdt_count_tables(X, y, order, starts, ends, cand_ptr, candidates, table_ptr,
                     n_classes):  # pragma: no cover - compiled
    """Value-by-class count tables of the candidate features of a level of nodes of the credal tree.

    Node i holds the rows ``order[starts[i]:ends[i]]`` of the codes ``X`` (n, d) with classes ``y`` and the
    candidate features ``candidates[cand_ptr[i]:cand_ptr[i + 1]]``; the table of candidate j has the rows
    ``table_ptr[j]:table_ptr[j + 1]`` (value v in row ``table_ptr[j] + v``, a missing value not counted).
    Returns ``values`` (R,) the instances of each row, ``seen`` the rows with instances, ``tables``
    (seen.size, K) their class counts and ``observed`` (J, K) the class counts of the rows where each
    candidate is observed (its table summed over values); the counts of Abellán & Moral (2003), Eq. 5.
    """
    instances = np.zeros(table_ptr[-1], dtype=np.int64)
    for i in range(starts.size):
        for position in range(starts[i], ends[i]):
            row = order[position]
            for j in range(cand_ptr[i], cand_ptr[i + 1]):
                value = X[row, candidates[j]]
                if value != MISSING:
                    instances[table_ptr[j] + value] += 1
    compact = np.full(instances.size, -1, dtype=np.int64)
    seen = np.flatnonzero(instances)
    compact[seen] = np.arange(seen.size)
    tables = np.zeros((seen.size, n_classes))
    observed = np.zeros((candidates.size, n_classes))
    for i in range(starts.size):
        for position in range(starts[i], ends[i]):
            row = order[position]
            c = y[row]
            for j in range(cand_ptr[i], cand_ptr[i + 1]):
                value = X[row, candidates[j]]
                if value != MISSING:
                    tables[compact[table_ptr[j] + value], c] += 1.0
                    observed[j, c] += 1.0
    return instances.astype(np.float64), seen, tables, observed


@njit(cache=True, nogil=True)
def cdt_gains(values, children, parent, table_ptr, cand_ptr):  # pragma: no cover - compiled
    """Imprecise information gains of the candidates of a level of nodes (Abellán & Moral 2003, Eq. 5) and
    each node's best candidate, as ``credal_tree._gains`` and ``np.argmax`` compute them.

    Candidate j has the instances per value ``values[table_ptr[j]:table_ptr[j + 1]]`` with maximum entropies
    ``children`` there and ``parent[j]`` of its observed class counts; its gain is ``parent[j]`` minus the
    NumPy-ordered sum of ``(n_x / N) H*`` over the table's rows (weight 0 when N = 0). Returns ``gains`` (J,)
    and ``best`` (nodes,), the first candidate of each node ``cand_ptr[i]:cand_ptr[i + 1]`` of largest gain.
    """
    gains = np.empty(parent.size)
    for j in range(parent.size):
        low, m = table_ptr[j], table_ptr[j + 1] - table_ptr[j]
        total = _pairwise_sum(values, low, m)
        terms = np.empty(m)
        for v in range(m):
            weight = values[low + v] / total if total > 0 else 0.0
            terms[v] = weight * children[low + v]
        gains[j] = parent[j] - _pairwise_sum(terms, 0, m)
    best = np.empty(cand_ptr.size - 1, dtype=np.int64)
    for i in range(cand_ptr.size - 1):
        best[i] = cand_ptr[i]
        for j in range(cand_ptr[i] + 1, cand_ptr[i + 1]):
            if gains[j] > gains[best[i]]:
                best[i] = j
    return gains, best


@njit(cache=True, nogil=True)
def cdt_partition(X, order, starts, ends, features, n_values):  # pragma: no cover - compiled
    """The rows of each splitting node grouped by their value of its split feature, for the children.

    Node i holds ``order[starts[i]:ends[i]]`` and splits on ``features[i]`` with ``n_values[i]`` values;
    slot ``slot_ptr[i] + v`` (``slot_ptr`` the running sum of ``n_values``) gathers its rows of value v,
    in their order, at ``new_order[bounds[slot]:bounds[slot + 1]]``; rows with a missing value stay out
    (they stay in the node only). Returns ``(new_order, bounds)``.
    """
    slot_ptr = np.zeros(starts.size + 1, dtype=np.int64)
    for i in range(starts.size):
        slot_ptr[i + 1] = slot_ptr[i] + n_values[i]
    bounds = np.zeros(slot_ptr[-1] + 1, dtype=np.int64)
    for i in range(starts.size):
        for position in range(starts[i], ends[i]):
            value = X[order[position], features[i]]
            if value != MISSING:
                bounds[slot_ptr[i] + value + 1] += 1
    for slot in range(slot_ptr[-1]):
        bounds[slot + 1] += bounds[slot]
    fill = bounds[:-1].copy()
    new_order = np.empty(bounds[-1], dtype=order.dtype)
    for i in range(starts.size):
        for position in range(starts[i], ends[i]):
            row = order[position]
            value = X[row, features[i]]
            if value != MISSING:
                slot = slot_ptr[i] + value
                new_order[fill[slot]] = row
                fill[slot] += 1
    return new_order, bounds


@njit(cache=True, nogil=True)
def cdt_preorder(first_child, n_children):  # pragma: no cover - compiled
    """Depth-first numbering of a tree grown level by level: node b's children are the nodes
    ``first_child[b]:first_child[b] + n_children[b]`` (-1: a leaf). Returns ``preorder`` (the nodes in the
    order a recursive growth numbers them on entry) and ``postorder`` (the split nodes in the order it
    finishes them)."""
    n = first_child.size
    preorder = np.empty(n, dtype=np.int64)
    postorder = np.empty(n, dtype=np.int64)
    stack = np.empty(2 * n + 1, dtype=np.int64)  # node on entry, -(node + 1) on exit
    top, entered, finished = 0, 0, 0
    stack[0] = 0
    while top >= 0:
        node = stack[top]
        top -= 1
        if node < 0:
            postorder[finished] = -node - 1
            finished += 1
            continue
        preorder[entered] = node
        entered += 1
        if first_child[node] >= 0:
            top += 1
            stack[top] = -node - 1
            for child in range(first_child[node] + n_children[node] - 1, first_child[node] - 1, -1):
                top += 1
                stack[top] = child
    return preorder, postorder[:finished]


__all__ += ["idm_water_levels", "idm_entropy_sums", "cdt_count_tables", "cdt_gains", "cdt_partition", "cdt_preorder"]


@njit(cache=True, nogil=True)
def overlap_distance_rows(queries, X_by_feature, out):  # pragma: no cover - compiled
    """Fill ``out`` (b, n) with the overlap distances of the queries (b, d) to the training instances
    ``X_by_feature`` (d, n, codes stored feature by feature): the number of features whose codes differ,
    a missing value (-1) on either side counting as a difference (LNCC's distance, Zaffalon, Corani &
    Mauá 2012 §9.2). Integer counting, feature after feature along the contiguous training axis."""
    d, n = X_by_feature.shape
    for q in range(queries.shape[0]):
        row = out[q]
        row[:] = 0
        for i in range(d):
            value = queries[q, i]
            column = X_by_feature[i]
            if value == MISSING:  # a training code equals the query's -1 where it is missing too
                for j in range(n):
                    row[j] += 1
            else:
                for j in range(n):
                    row[j] += column[j] != value


@njit(cache=True, nogil=True)
def neighbour_order(distances, level_counts, radius):  # pragma: no cover - compiled
    """The training instances of each query's largest ball, nearest first: query q's instances at distance
    ``<= radius[q]`` are ``order[ptr[q]:ptr[q + 1]]``, by distance then index, so that its instances at distance
    in (r1, r2] are one slice (offsets from the running sums of ``level_counts`` (b, d + 1), the histograms of
    ``distances`` (b, n)). Returns ``(order, ptr)``: a counting sort of each row, done once per query."""
    b, n = distances.shape
    ptr = np.zeros(b + 1, dtype=np.int64)
    for q in range(b):
        total = 0
        for r in range(radius[q] + 1):
            total += level_counts[q, r]
        ptr[q + 1] = ptr[q] + total
    order = np.empty(ptr[-1], dtype=np.int32)
    fill = np.empty(level_counts.shape[1], dtype=np.int64)
    for q in range(b):
        position = ptr[q]
        for r in range(radius[q] + 1):
            fill[r] = position
            position += level_counts[q, r]
        limit = radius[q]
        for j in range(n):
            distance = distances[q, j]
            if distance <= limit:
                order[fill[distance]] = j
                fill[distance] += 1
    return order, ptr


@njit(cache=True, nogil=True)
def add_ordered_shells(order, starts, ends, rows, X, y, queries, class_counts, matches,
                       missing):  # pragma: no cover - compiled
    """Add to the NCC counts of each query ``rows[k]`` the training instances ``order[starts[k]:ends[k]]``
    (one shell of :func:`neighbour_order`): n(c) (b, K), n(x_i = q_i, c) (b, d, K) and the number of
    instances of class c whose feature i is missing (b, d, K), for the training codes ``X`` (n, d) with
    classes ``y`` (LNCC, Zaffalon, Corani & Mauá 2012 §9.2). The shell is counted branch-free into
    integer (K, d) tables, then added: integer counts, whatever the order of the additions."""
    d = X.shape[1]
    k_classes = class_counts.shape[1]
    hits = np.zeros((k_classes, d), dtype=np.int64)
    gaps = np.zeros((k_classes, d), dtype=np.int64)
    for k in range(rows.size):
        q = rows[k]
        query = queries[q]
        hits[:] = 0
        gaps[:] = 0
        for position in range(starts[k], ends[k]):
            j = order[position]
            c = y[j]
            class_counts[q, c] += 1.0
            for i in range(d):
                value = X[j, i]
                gaps[c, i] += value == MISSING
                hits[c, i] += value == query[i]
        for c in range(k_classes):
            for i in range(d):
                matches[q, i, c] += hits[c, i]
                missing[q, i, c] += gaps[c, i]


@njit(cache=True, nogil=True)
def cma_min_log_ratios(low, high, prior, out):  # pragma: no cover - compiled
    """Fill ``out`` (n, K, K) with ``prior[c1, c2]`` plus the sum over features of
    min(low[i, c1] - low[i, c2], high[i, c1] - high[i, c2]), ``low`` and ``high`` (n, d, K) the log factors
    at the two ends of the inclusion interval: CMA's minimum log ratio (Corani & Zaffalon 2008), with
    NumPy's operations in its order (the features summed one after the other, as it sums a middle axis)."""
    n, d, k = low.shape
    total = np.zeros((k, k))
    for r in range(n):
        for i in range(d):
            for a in range(k):
                low_a, high_a = low[r, i, a], high[r, i, a]
                for b in range(k):
                    x = low_a - low[r, i, b]
                    z = high_a - high[r, i, b]
                    term = x if x <= z or x != x else z  # np.minimum: NaN propagates
                    total[a, b] = term if i == 0 else total[a, b] + term
        for a in range(k):
            for b in range(k):
                out[r, a, b] = prior[a, b] + total[a, b]


__all__ += ["overlap_distance_rows", "neighbour_order", "add_ordered_shells", "cma_min_log_ratios"]
