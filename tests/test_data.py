"""The data layer: every file of data/raw against MANIFEST.csv, class conventions, sources and errors."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from credalbook import data
from credalbook.data import (ArffFormatError, ChecksumError, Dataset, DatasetNotFoundError, fetch, list_datasets,
                             load, load_group, read_arff, read_delimited, registry)

RAW = data.repository_dir()


def _manifest() -> pd.DataFrame:
    frame = pd.read_csv(RAW / "MANIFEST.csv", dtype=str, keep_default_na=False)
    return frame[frame["n_rows"] != ""]


def _manifest_rows():
    return [pytest.param(row, id=f"{row['file']}:{row['class_attribute']}") for _, row in _manifest().iterrows()]


def _class_name(manifest_class: str) -> str:
    """MANIFEST names the class of a headerless file ``colK (last)``."""
    return manifest_class.removesuffix(" (last)")


def _read_any(path: Path) -> pd.DataFrame:
    """The registry's reader for a file of data/raw, found through the registry row that names it."""
    table = registry()
    entry = table[table["files"] == str(path.relative_to(RAW))].iloc[0]
    if entry["format"] == "arff":
        return read_arff(path)
    sep = "whitespace" if entry["format"] == "whitespace" else entry["sep"]
    return read_delimited(path, sep=sep, header=entry["header"] != "no")


# ------------------------------------------------------------------------------ data/raw vs MANIFEST
@pytest.mark.parametrize("row", _manifest_rows())
def test_every_raw_file_parses_with_manifest_counts(row):
    frame = _read_any(RAW / row["file"])
    class_attribute = _class_name(row["class_attribute"])
    assert len(frame) == int(row["n_rows"])
    assert frame.shape[1] == int(row["n_attributes"])
    assert frame[class_attribute].nunique(dropna=True) == int(row["n_classes"])


def test_registry_covers_manifest_and_copies_its_checksums():
    table = registry()
    for _, row in _manifest().iterrows():
        for group in row["paper_groups"].split(";"):
            hits = table[(table["group"] == group) & (table["name"] == row["name"])]
            assert len(hits) == 1, (group, row["name"])
            entry = hits.iloc[0]
            assert entry["files"] == row["file"] and entry["sha256"] == row["sha256"]
            assert entry["n_rows"] == int(row["n_rows"]) and entry["n_classes"] == int(row["n_classes"])
            assert entry["class_attribute"] == _class_name(row["class_attribute"])


@pytest.mark.parametrize("group,name", [pytest.param(g, n, id=f"{g}:{n}") for g, n in
                                        registry().query("status == 'available'")[["group", "name"]].itertuples(
                                            index=False)])
def test_every_registry_dataset_loads_from_the_repository_with_expected_sizes(group, name, monkeypatch):
    monkeypatch.delenv("CREDALBOOK_DATA_MIRROR", raising=False)
    entry = registry().query("group == @group and name == @name").iloc[0]
    dataset = load(name, group)
    assert isinstance(dataset, Dataset) and dataset.group == group
    assert dataset.source == f"repository:{entry['files']}"  # sha256 checked on the way
    assert len(dataset.X) == len(dataset.y) == entry["n_rows"]
    assert len(dataset.classes) == entry["n_classes"]
    codes = dataset.y_codes
    assert codes.dtype == np.int64 and codes.min() == 0 and codes.max() == len(dataset.classes) - 1
    assert set(np.unique(codes)) == set(range(len(dataset.classes)))
    for column in dataset.X.columns:
        dtype = dataset.X[column].dtype
        assert isinstance(dtype, pd.CategoricalDtype) or dtype == np.float64, (column, dtype)
    assert sorted(dataset.nominal_features + dataset.numeric_features) == sorted(dataset.X.columns)
    assert dataset.y.name not in dataset.X.columns
    for dropped in [c for c in entry["drop"].split(";") if c]:
        assert dropped not in dataset.X.columns
    if entry["n_attributes"] is not pd.NA and ";" not in entry["files"]:
        n_dropped = len([c for c in entry["drop"].split(";") if c])
        assert dataset.X.shape[1] == entry["n_attributes"] - 1 - n_dropped


# ------------------------------------------------------------------------------ class conventions
@pytest.mark.parametrize("name,group,class_attribute,n_classes", [
    ("lung-cancer", "ferri2019", "attribute57", 2),
    ("spect_train", "ferri2019", "OVERALL_DIAGNOSIS", 2),
    ("spect_test", "ferri2019", "OVERALL_DIAGNOSIS", 2),
    ("spect", "zaffalon2012", "OVERALL_DIAGNOSIS", 2),
    ("wine", "zaffalon2012", "class", 3),
    ("parkinsons", "aguilar2025", "status", 2),
    ("cardiotocography", "aguilar2025", "CLASS", 10),
    ("solar-flare-C", "zaffalon2012", "C-class_flares_production_by_this_region", 3),
    ("solar-flare-m", "zaffalon2012", "M-class_flares_production_by_this_region", 4),
    ("solar-flare-X", "zaffalon2012", "X-class_flares_production_by_this_region", 2),
])
def test_class_attribute_per_group(name, group, class_attribute, n_classes):
    dataset = load(name, group)
    assert dataset.y.name == class_attribute
    assert len(dataset.classes) == n_classes


def test_ferri_class_is_last_attribute_except_spect_where_table5_majority_decides():
    # Ferri et al. (2019), Table 5, majority class proportions: spect_test 0.92, spect_train 0.50.
    # The last attribute of the spect files is F22 (0.55 / 0.675), OVERALL_DIAGNOSIS gives 0.92 / 0.50.
    for name, majority in [("spect_test", 0.92), ("spect_train", 0.50)]:
        dataset = load(name, "ferri2019")
        assert round(float(np.bincount(dataset.y_codes).max() / len(dataset.y)), 2) == majority
    table = registry().query("group == 'ferri2019'")
    for _, entry in table.iterrows():
        if entry["name"].startswith("spect"):
            continue
        header = read_arff(RAW / entry["files"])
        assert header.columns[-1] == entry["class_attribute"], entry["name"]


def test_ferri_sizes_and_majority_proportions_match_table5():
    from credalbook.book.reference import published

    table5 = published("datasets_ferri2019_table5").set_index("dataset")
    listing = list_datasets("ferri2019").set_index("paper_name")
    assert sorted(table5.index) == sorted(listing.index)
    for name, row in table5.iterrows():
        assert listing.loc[name, "n_rows"] == row["instances"], name
        assert abs(listing.loc[name, "majority"] - row["majority"]) <= 0.005 + 1e-12, name
        dropped = 1 if name == "Musk1" else 0  # molecule_name, an identifier of the class
        assert listing.loc[name, "n_features"] + 1 + dropped == row["attributes"], name


def test_multi_file_and_combined_datasets():
    spect = load("spect", "zaffalon2012")
    train, test = load("spect_train", "zaffalon2012"), load("spect_test", "zaffalon2012")
    assert len(spect.y) == 267 == len(train.y) + len(test.y)
    pd.testing.assert_frame_equal(spect.X.iloc[:80].reset_index(drop=True), train.X)
    landsat = load("landsat")
    assert len(landsat.y) == 6435 and landsat.X.shape[1] == 36 and landsat.classes == ["1", "2", "3", "4", "5", "7"]


def test_ordinal_classes_are_ordered_in_declared_order():
    era = load("ERA")
    assert era.y.cat.ordered and era.classes == [str(k) for k in range(1, 10)]
    assert era.y.iloc[0] < "9" or era.y.iloc[0] == "9"
    assert not load("iris").y.cat.ordered


def test_declared_nominal_order_and_unused_class_values():
    anneal = load("anneal")
    header = read_arff(RAW / "uci/anneal.arff")
    assert len(header["class"].cat.categories) > len(anneal.classes)  # declared but absent class removed
    assert anneal.classes == [c for c in header["class"].cat.categories if c in set(header["class"].dropna())]
    declared = load("anneal", declared_classes=True)
    assert declared.classes == list(header["class"].cat.categories)
    assert (declared.y.astype(str) == anneal.y.astype(str)).all()
    assert np.bincount(declared.y_codes, minlength=len(declared.classes)).tolist().count(0) == 1
    kr = load("kr-kp")
    assert kr.classes == ["won", "nowin"]  # declared order, not alphabetical


def test_missing_values_are_nan_and_ids_dropped():
    vote = load("vote")
    assert vote.X.isna().to_numpy().sum() == 392
    assert "animal" not in load("zoo").X.columns
    assert "molecule_name" not in load("musk1", "ferri2019").X.columns
    assert load("yeast").X.shape[1] == 8
    ctg = load("cardiotocography")
    assert list(ctg.X.columns)[0] == "LB" and list(ctg.X.columns)[-1] == "Tendency" and ctg.X.shape[1] == 21


def test_names_are_case_insensitive_and_aliases_resolve():
    assert load("KR-KP").name == "kr-vs-kp"
    assert load("chess-KRVKP", "ferri2019").name == "chess-kr-vs-kp"
    assert load("wisconsin-breast-cancer").name == "breast-w"
    assert load("breast-w").group == "zaffalon2012"  # GROUPS order without group=
    assert load("Breast-W", "ferri2019").source.endswith("ferri2019/data/breast-w.arff")


# ------------------------------------------------------------------------------ availability
def test_known_missing_dataset_says_why():
    with pytest.raises(DatasetNotFoundError, match=r"connect-4 is not available: not in the book's data"):
        load("connect-4")
    with pytest.raises(DatasetNotFoundError, match="musk2 is not available"):
        load("musk v2")
    with pytest.raises(DatasetNotFoundError, match="SWD"):
        load("swd", "yang2017")
    with pytest.raises(DatasetNotFoundError, match="no verified URL"):
        fetch("connect-4")


def test_unknown_name_lists_known_names():
    with pytest.raises(DatasetNotFoundError, match="no dataset named 'nonesuch'.*known names: .*iris"):
        load("nonesuch")
    with pytest.raises(DatasetNotFoundError, match="in group 'ferri2019'"):
        load("iris", "ferri2019")


class TestBadInput:
    def test_bad_group(self):
        with pytest.raises(ValueError, match="group must be one of"):
            load("iris", "zaffalon")
        with pytest.raises(ValueError, match="group must be one of"):
            list_datasets("nope")
        with pytest.raises(ValueError, match="group must be one of"):
            next(load_group("nope"))

    @pytest.mark.parametrize("name", ["", "   ", None, 3])
    def test_bad_name(self, name):
        with pytest.raises(ValueError, match="name must be a non-empty dataset name"):
            load(name)
        with pytest.raises(ValueError, match="name must be a non-empty dataset name"):
            fetch(name)


# ------------------------------------------------------------------------------ the ARFF reader
def _arff(tmp_path: Path, text: str, newline: str = "\n") -> pd.DataFrame:
    path = tmp_path / "x.arff"
    path.write_bytes(text.replace("\n", newline).encode())
    return read_arff(path)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_arff_reader_tolerates_weka_and_keel_syntax(tmp_path, newline):
    text = """% a comment
@RELATION 'odd relation'
@attribute 'name with spaces'   integer [1, 10]
@ATTRIBUTE width real[0.5,2.5]
@attribute colour { red , 'dark blue',green }
@attribute  n NUMERIC
@inputs 'name with spaces', width, colour
@outputs n
@data
% comment inside data
 1 , 0.5,red, 3
2,?, 'dark blue' ,4.5e1

10,2.5,?,?
"""
    frame = _arff(tmp_path, text, newline)
    assert list(frame.columns) == ["name with spaces", "width", "colour", "n"]
    np.testing.assert_array_equal(frame["name with spaces"], [1.0, 2.0, 10.0])
    np.testing.assert_array_equal(frame["width"].isna(), [False, True, False])
    assert list(frame["colour"].cat.categories) == ["red", "dark blue", "green"]
    assert frame["colour"].tolist()[:2] == ["red", "dark blue"] and pd.isna(frame["colour"].iloc[2])
    np.testing.assert_array_equal(frame["n"].to_numpy()[:2], [3.0, 45.0])


def test_arff_reader_sparse_rows(tmp_path):
    text = "@relation s\n@attribute a numeric\n@attribute b numeric\n@attribute c {x,y}\n@data\n{1 5, 2 y}\n{}\n"
    frame = _arff(tmp_path, text)
    np.testing.assert_array_equal(frame["a"], [0.0, 0.0])
    np.testing.assert_array_equal(frame["b"], [5.0, 0.0])
    assert frame["c"].tolist() == ["y", "x"]


def test_arff_reader_quoted_values_with_commas_and_escapes(tmp_path):
    text = "@relation q\n@attribute s {'a,b','it\\'s'}\n@attribute v numeric\n@data\n'a,b',1\n'it\\'s',2\n"
    frame = _arff(tmp_path, text)
    assert frame["s"].tolist() == ["a,b", "it's"]


@pytest.mark.parametrize("text,message", [
    ("@relation r\n@attribute a {x,y}\n@data\nz\n", "undeclared values \\['z'\\]"),
    ("@relation r\n@attribute a numeric\n@data\nabc\n", "numeric attribute 'a' has value 'abc'"),
    ("@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n1\n", "line 5: 1 values for 2 attributes"),
    ("@relation r\n@attribute a numeric\n", "no @data section"),
    ("@relation r\n@attribute a blob\n@data\n1\n", "unknown type 'blob'"),
    ("@relation r\n@data\n1\n", "@data before any @attribute"),
    ("@relation r\n@attribute a {x,y\n@data\nx\n", "no closing brace"),
    ("@relation r\n@attribute a numeric\n@attribute a numeric\n@data\n1,2\n",
     "line 3: attribute 'a' declared twice \\(first on line 2\\)"),
    ("@relation r\n@attribute a {x, y, x}\n@data\nx\n", "line 2: nominal attribute 'a' declares the value 'x' twice"),
    ("@relation r\n@attribute a {x,y}\n@data\nx\nx\nz\n", "line 6: nominal attribute 'a' has undeclared"),
    ("@relation r\n@attribute a numeric\n@data\n1\n1_000\n", "line 5: numeric attribute 'a' has value '1_000'"),
    ("@relation r\n@attribute a numeric\n@data\ninf\n", "numeric attribute 'a' has value 'inf'"),
    ("@relation r\n@attribute a numeric\n@data\n1,2\n", "line 4: 2 values for 1 attributes"),
    ("@attribute a numeric\n@data\n1\n", "line 1: @relation expected"),
    ("@relation r\n@attribute a date\n@data\n2001-2-3T00:00:00\n", "line 4: date attribute 'a' has value"),
    ("@relation r\n@attribute a date 'yyyy-MM-dd hh'\n@data\n?\n", "line 2: date format .* 'h' is not supported"),
    ("@relation r\n@attribute a numeric\n@attribute s string\n@data\n{0 1}\n", "line 5: sparse row omits string"),
    ("@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n{1 1, 0 2}\n", "line 5: sparse indices must"),
])
def test_arff_reader_errors_name_file_and_problem(tmp_path, text, message):
    with pytest.raises(ArffFormatError, match=message):
        _arff(tmp_path, text)


def test_delimited_reader_headerless_and_semicolon(tmp_path):
    whitespace = tmp_path / "w.dat"
    whitespace.write_bytes(b" 1.5\t 2 \t a\r\n -3e-1\t ?\t b\r\n")
    frame = read_delimited(whitespace, sep="whitespace", header=False)
    assert list(frame.columns) == ["col1", "col2", "col3"]
    np.testing.assert_allclose(frame["col1"], [1.5, -0.3])
    assert np.isnan(frame["col2"].iloc[1]) and frame["col2"].dtype == np.float64
    semicolon = tmp_path / "s.csv"
    semicolon.write_text('"fixed acidity";"quality "\n7.4;5\n7.8;6\n')
    frame = read_delimited(semicolon, sep=";")
    assert list(frame.columns) == ["fixed acidity", "quality"]


# ------------------------------------------------------------------------------ sources
@pytest.fixture
def fake_mirror(tmp_path, monkeypatch):
    """A private copy of a few files of data/raw, used as the mirror; no repository copy, an empty cache."""
    root = tmp_path / "mirror"
    for relative in ["uci/iris.arff", "uci/wine.arff", "uci/spect_train.arff", "uci/spect_test.arff"]:
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(RAW / relative, root / relative)
    monkeypatch.setattr(data, "repository_dir", lambda: tmp_path / "no-repository")
    monkeypatch.setenv("CREDALBOOK_DATA_MIRROR", str(root))
    monkeypatch.setenv("CREDALBOOK_DATA_CACHE", str(tmp_path / "cache"))
    return root


def test_repository_comes_first_then_the_mirror(tmp_path, monkeypatch):
    root = tmp_path / "mirror"
    (root / "uci").mkdir(parents=True)
    shutil.copyfile(RAW / "uci/iris.arff", root / "uci/iris.arff")
    monkeypatch.setenv("CREDALBOOK_DATA_MIRROR", str(root))
    assert load("iris").source == "repository:uci/iris.arff"
    monkeypatch.setattr(data, "repository_dir", lambda: tmp_path / "no-repository")
    assert load("iris").source == "mirror:uci/iris.arff"


def test_checksum_mismatch_is_a_clear_error(fake_mirror):
    assert load("iris").source == "mirror:uci/iris.arff"
    path = fake_mirror / "uci/iris.arff"
    path.write_text(path.read_text().replace("5.1,3.5,1.4,0.2", "5.2,3.5,1.4,0.2", 1))
    with pytest.raises(ChecksumError, match=r"iris.arff: sha256 [0-9a-f]{64} differs from the registry's 8337af8c"):
        load("iris")


def test_mirror_absent_falls_back_to_sklearn_where_values_are_identical(fake_mirror):
    mirrored = load("wine")
    (fake_mirror / "uci/wine.arff").unlink()
    bundled = load("wine")
    assert bundled.source == "package:sklearn.load_wine"
    pd.testing.assert_frame_equal(bundled.X, mirrored.X)
    pd.testing.assert_series_equal(bundled.y, mirrored.y)


def test_sklearn_iris_is_not_the_books_iris(fake_mirror, tmp_path):
    """scikit-learn's iris has Fisher's values in rows 35 and 38 (1-based); UCI/Weka's file does not."""
    from sklearn.datasets import load_iris

    mirrored = load("iris").X.to_numpy()
    bundled = load_iris().data
    assert sorted({int(i) for i in np.argwhere(mirrored != bundled)[:, 0]}) == [34, 37]
    (fake_mirror / "uci/iris.arff").unlink()
    with pytest.raises(DatasetNotFoundError) as error:
        load("iris")
    message = str(error.value)
    assert "iris (zaffalon2012) is not available; searched: the repository" in message
    assert str(tmp_path / "no-repository") in message and str(fake_mirror) in message
    assert "scikit-learn ships no copy" in message
    assert "the cache" in message and "credalbook fetch NAME" in message


def test_unset_mirror_is_named_as_unset(fake_mirror, monkeypatch):
    monkeypatch.delenv("CREDALBOOK_DATA_MIRROR")
    with pytest.raises(DatasetNotFoundError, match=r"no mirror \(set CREDALBOOK_DATA_MIRROR\)"):
        load("iris")


def test_cache_is_searched_after_the_mirror(fake_mirror, tmp_path):
    (fake_mirror / "uci/iris.arff").unlink()
    cached = tmp_path / "cache" / "uci" / "iris.arff"
    cached.parent.mkdir(parents=True)
    shutil.copyfile(RAW / "uci/iris.arff", cached)
    dataset = load("iris")
    assert dataset.source == "cache:uci/iris.arff" and len(dataset.y) == 150


def test_fetch_downloads_verifies_and_caches(fake_mirror, tmp_path, monkeypatch):
    payload = {name: (RAW / f"uci/{name}.arff").read_bytes() for name in ("spect_train", "spect_test")}
    calls = []
    entry = registry().query("group == 'zaffalon2012' and name == 'spect'").iloc[0]
    urls = entry["urls"].split(";")
    assert urls[0].endswith("classification/spect.train.arff") and urls[1].endswith("spect.test.arff")
    table = {urls[0]: payload["spect_train"], urls[1]: payload["spect_test"]}
    monkeypatch.setattr(data, "_download", lambda url, timeout=60.0: calls.append(url) or table[url])
    for name in ("spect_train", "spect_test"):
        (fake_mirror / f"uci/{name}.arff").unlink()
    with pytest.raises(DatasetNotFoundError):
        load("spect")
    paths = fetch("spect")
    assert [p.name for p in paths] == ["spect_train.arff", "spect_test.arff"] and len(calls) == 2
    assert fetch("spect") == paths and len(calls) == 2  # verified cache: no second download
    dataset = load("spect")
    assert dataset.source.startswith("cache:") and len(dataset.y) == 267
    fetch("spect", force=True)
    assert len(calls) == 4


def test_fetch_rejects_a_corrupted_download(fake_mirror, tmp_path, monkeypatch):
    monkeypatch.setattr(data, "_download", lambda url, timeout=60.0: b"<html>rate limited</html>")
    with pytest.raises(ChecksumError, match="not written to the cache"):
        fetch("iris")
    assert not (tmp_path / "cache" / "uci" / "iris.arff").exists()


# ------------------------------------------------------------------------------ listing
def test_list_datasets_and_load_group():
    listing = list_datasets("aguilar2025")
    assert set(listing.columns) >= {"name", "groups", "available", "n_rows", "n_classes", "source", "in_paper"}
    paper = listing[listing["in_paper"]]
    assert len(paper) == 21 and paper["available"].sum() == 20
    assert paper.loc[~paper["available"], "name"].tolist() == ["musk2"]
    assert listing.set_index("name").loc["sonar", "groups"] == "aguilar2025;ferri2019;zaffalon2012"
    names = [d.name for d in load_group("aguilar2025")]
    assert len(names) == 20 and "musk2" not in names and "landsat" in names and "landsat (train)" not in names
    assert sum(1 for _ in load_group("zaffalon2012")) == 54
    assert sum(1 for _ in load_group("ferri2019")) == 26
    assert [d.name for d in load_group("yang2017")] == ["ERA", "ESL", "LEV"]


# ------------------------------------------------------------------------------ registry consistency
def test_registry_rows_are_consistent():
    table = registry()
    assert set(table["group"]) == set(data.GROUPS)
    assert not table.duplicated(["group", "name"]).any()
    for _, entry in table.iterrows():
        label = f"{entry['group']}:{entry['name']}"
        if entry["status"] == "missing":
            assert not entry["files"] and entry["note"].startswith(("not in the book's data", "ordinal collection")), label
            continue
        assert entry["status"] == "available", label
        files, shas = entry["files"].split(";"), entry["sha256"].split(";")
        assert len(files) == len(shas) and all(re.fullmatch(r"[0-9a-f]{64}", s) for s in shas), label
        assert entry["format"] in {"arff", "csv", "whitespace"} and entry["class_attribute"], label
        urls = [u for u in entry["urls"].split(";") if u]
        assert not urls or len(urls) == len(files), label
        assert all(u.startswith("https://raw.githubusercontent.com/") for u in urls), label
        assert urls or entry["note"], f"{label}: a row without URL must say why"


def test_names_and_aliases_are_unambiguous_within_a_group():
    table = registry()
    for group, rows in table.groupby("group"):
        keys = [data._normalise(k) for _, e in rows.iterrows()
                for k in [e["name"], *[a for a in e["aliases"].split(";") if a]]]
        duplicates = {k for k in keys if keys.count(k) > 1}
        assert not duplicates, (group, duplicates)


def test_urls_point_to_the_manifest_source_commit():
    manifest = _manifest()
    table = registry()
    for _, row in manifest.iterrows():
        entry = table[(table["name"] == row["name"]) & (table["files"] == row["file"])].iloc[0]
        if entry["urls"]:
            assert entry["urls"] == (f"https://raw.githubusercontent.com/{row['source_repo']}/"
                                     f"{row['source_commit']}/{row['source_path']}")


# ------------------------------------------------------------------------------ hand-checked values
def test_contact_lenses_by_hand():
    lenses = load("contact-lenses")
    # Weka's contact-lenses.arff: 24 rows, class {soft, hard, none} with 5 / 4 / 15 instances.
    assert lenses.classes == ["soft", "hard", "none"]
    np.testing.assert_array_equal(np.bincount(lenses.y_codes), [5, 4, 15])
    assert lenses.nominal_features == ["age", "spectacle-prescrip", "astigmatism", "tear-prod-rate"]
    assert list(lenses.X["age"].cat.categories) == ["young", "pre-presbyopic", "presbyopic"]
    assert lenses.X.iloc[0].tolist() == ["young", "myope", "no", "reduced"] and lenses.y.iloc[0] == "none"
    assert lenses.numeric_features == []


def test_iris_by_hand():
    iris = load("iris")
    assert iris.X.iloc[0].tolist() == [5.1, 3.5, 1.4, 0.2]
    np.testing.assert_array_equal(iris.y_codes, np.repeat([0, 1, 2], 50))
    assert iris.numeric_features == ["sepallength", "sepalwidth", "petallength", "petalwidth"]
    assert "iris" in repr(iris) and "classes=3" in repr(iris)


# ------------------------------------------------------------------------------ ARFF round trip
def _write_arff(frame: pd.DataFrame, kinds: dict, *, crlf: bool, pad: str) -> str:
    lines = ["% generated", "@relation 'round trip'"]
    for column in frame.columns:
        name = f"'{column}'" if " " in column else column
        if kinds[column] == "numeric":
            lines.append(f"@attribute {name} {pad}REAL")
        else:
            values = ",".join(f"{pad}{v}{pad}" for v in frame[column].cat.categories)
            lines.append(f"@attribute {name} {{{values}}}")
    lines.append("@data")
    for _, row in frame.iterrows():
        cells = ["?" if pd.isna(v) else (repr(float(v)) if kinds[c] == "numeric" else str(v))
                 for c, v in row.items()]
        lines.append(",".join(f"{pad}{cell}{pad}" for cell in cells))
    return ("\r\n" if crlf else "\n").join(lines) + "\n"


@st.composite
def _frames(draw):
    n_rows = draw(st.integers(1, 8))
    n_cols = draw(st.integers(1, 4))
    columns, kinds = {}, {}
    for j in range(n_cols):
        name = draw(st.sampled_from([f"a{j}", f"attr {j}", f"x_{j}"]))
        if draw(st.booleans()):
            values = draw(st.lists(st.one_of(st.none(), st.floats(-1e6, 1e6, allow_nan=False, width=64)),
                                   min_size=n_rows, max_size=n_rows))
            columns[name] = [np.nan if v is None else v for v in values]
            kinds[name] = "numeric"
        else:
            categories = draw(st.lists(st.sampled_from(["lo", "mid", "hi", "b-1", "c.2", "0", "1"]), min_size=1,
                                       max_size=5, unique=True))
            values = draw(st.lists(st.one_of(st.none(), st.sampled_from(categories)), min_size=n_rows,
                                   max_size=n_rows))
            columns[name] = pd.Categorical(values, categories=categories)
            kinds[name] = "nominal"
    return pd.DataFrame(columns), kinds


@settings(max_examples=60, deadline=None)
@given(_frames(), st.booleans(), st.sampled_from(["", " ", "  "]))
def test_arff_round_trip(tmp_path_factory, drawn, crlf, pad):
    frame, kinds = drawn
    path = tmp_path_factory.mktemp("arff") / "r.arff"
    path.write_bytes(_write_arff(frame, kinds, crlf=crlf, pad=pad).encode())
    back = read_arff(path)
    assert list(back.columns) == list(frame.columns)
    for column in frame.columns:
        if kinds[column] == "numeric":
            np.testing.assert_array_equal(back[column].to_numpy(), frame[column].to_numpy(dtype=float))
        else:
            assert list(back[column].cat.categories) == list(frame[column].cat.categories)
            assert back[column].astype(object).where(back[column].notna(), None).tolist() == \
                frame[column].astype(object).where(frame[column].notna(), None).tolist()


def test_arff_reader_rejects_an_attribute_without_name(tmp_path):
    with pytest.raises(ArffFormatError, match="line 2: attribute without a name"):
        _arff(tmp_path, "@relation r\n@attribute\n@data\n")


# ------------------------------------------------------------------------------ a private registry
TOY_ARFF = """@relation toy
@attribute id string
@attribute colour {red,green,blue}
@attribute size numeric
@attribute class {yes,maybe,no}
@data
a1,red,1.5,yes
a2,?,2.5,no
a3,blue,?,?
a4,green,4,no
"""
TOY_CSV = "name,height,kind\nx,1.0,tall\ny,?,short\nz,3,tall\n"


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A registry of two toy datasets over a private mirror; returns a function rewriting the registry."""
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "toy.arff").write_text(TOY_ARFF)
    (mirror / "toy.csv").write_text(TOY_CSV)
    monkeypatch.setenv("CREDALBOOK_DATA_MIRROR", str(mirror))
    monkeypatch.setenv("CREDALBOOK_DATA_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "datasets.csv"
    monkeypatch.setattr(data, "_registry_path", lambda: path)
    base = {column: "" for column in data._REGISTRY_COLUMNS}

    def write(**changes):
        rows = [dict(base, group="zaffalon2012", name="toy", in_paper="True", status="available", files="toy.arff",
                     format="arff", class_attribute="class", drop="id",
                     sha256=data._sha256_of(mirror / "toy.arff"), n_rows="3", n_classes="2"),
                dict(base, group="aguilar2025", name="toy-csv", in_paper="True", status="available", files="toy.csv",
                     format="csv", sep=",", header="yes", class_attribute="kind", drop="",
                     sha256=data._sha256_of(mirror / "toy.csv"), n_rows="3", n_classes="2")]
        rows[0].update(changes)
        pd.DataFrame(rows).to_csv(path, index=False)
        # a new mtime for the registry cache even within one clock tick
        path.touch()
        data._registry_cached.cache_clear()

    write()
    return write


def test_rows_with_missing_class_are_dropped_and_ids_removed(toy):
    dataset = load("toy")
    assert len(dataset.y) == 3 and dataset.classes == ["yes", "no"]  # 'maybe' never occurs
    np.testing.assert_array_equal(dataset.y_codes, [0, 1, 1])
    assert list(dataset.X.columns) == ["colour", "size"]
    assert list(dataset.X["colour"].cat.categories) == ["red", "green", "blue"]
    assert dataset.X["colour"].isna().tolist() == [False, True, False]
    np.testing.assert_array_equal(dataset.X["size"], [1.5, 2.5, 4.0])


def test_text_columns_of_csv_files_become_sorted_categoricals(toy):
    dataset = load("toy-csv")
    assert dataset.classes == ["short", "tall"] and list(dataset.X["name"].cat.categories) == ["x", "y", "z"]
    assert dataset.X["height"].dtype == np.float64 and np.isnan(dataset.X["height"].iloc[1])
    assert dataset.nominal_features == ["name"] and dataset.numeric_features == ["height"]


def test_numeric_class_labels_are_formatted_and_sorted_numerically(tmp_path):
    path = tmp_path / "n.dat"
    path.write_text("0.5 10\n0.7 2\n0.1 10\n0.2 7.5\n")
    labels = data._as_categorical(read_delimited(path, sep="whitespace", header=False)["col2"])
    assert list(labels.categories) == ["2", "7.5", "10"] and labels.tolist() == ["10", "2", "10", "7.5"]


class TestRegistryErrors:
    def test_drop_of_an_absent_column(self, toy):
        toy(drop="id;nope")
        with pytest.raises(ValueError, match=r"toy: registry drops columns \['nope'\] that the file does not have"):
            load("toy")

    def test_class_attribute_absent(self, toy):
        toy(class_attribute="Class")
        with pytest.raises(ValueError, match="toy: class attribute 'Class' not among the columns"):
            load("toy")

    def test_unknown_format(self, toy):
        toy(format="xlsx", sha256="")
        with pytest.raises(ValueError, match="unknown format 'xlsx'"):
            load("toy")

    def test_registry_without_a_column(self, toy, tmp_path):
        pd.read_csv(data._registry_path(), dtype=str).drop(columns="drop").to_csv(data._registry_path(), index=False)
        data._registry_cached.cache_clear()
        with pytest.raises(ValueError, match=r"lacks columns \['drop'\]"):
            load("toy")


# ------------------------------------------------------------------------------ the shipped copy
def test_every_shipped_file_has_its_origin_licence_and_checksum_in_the_readme():
    readme = (RAW / "README.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `([^`]+)` \|.*\| `([0-9a-f]{12})…` \|$", readme, re.M)}
    shipped = sorted(str(p.relative_to(RAW)) for p in RAW.rglob("*") if p.is_file()
                     and p.name not in {"README.md", "MANIFEST.csv"})
    assert sorted(rows) == shipped
    manifest = dict(zip(*pd.read_csv(RAW / "MANIFEST.csv", dtype=str)[["file", "sha256"]].T.to_numpy()))
    for relative in shipped:
        sha = data._sha256_of(RAW / relative)
        assert sha.startswith(rows[relative]), relative
        assert relative.startswith("jncc2/") or manifest[relative] == sha, relative


def test_every_registry_file_is_shipped():
    table = registry()
    files = {f for field in table["files"] for f in field.split(";") if f}
    assert files and all((RAW / f).is_file() for f in files)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["", "'", '"']), st.text(alphabet="ab ,'\"\\%{}", max_size=5),
                          st.text(alphabet=" \t", max_size=2)), min_size=1, max_size=6))
def test_the_fast_path_splits_a_line_as_the_scanner_does(tokens):
    """Lines without quotes, escapes, comments or braces take the fast path; it gives the scanner's tokens."""
    line = ",".join(f"{space}{quote}{body}{quote}{space}" for quote, body, space in tokens)
    if data._SPECIAL.search(line) is not None:
        return
    scanned = [text for text, kind in data._scan(line)]
    assert line.replace(",", " ").split() == scanned == data._WORDS.findall(line)


def test_arff_tokens_as_weka_reads_them():
    scan = data._scan
    assert scan("'f', 't' ,\"won\",3.5, ?") == [("f", 1), ("t", 1), ("won", 1), ("3.5", 0), ("?", 0)]
    assert scan("'a,b','it\\'s',x") == [("a,b", 1), ("it's", 1), ("x", 0)]
    assert scan("a b\tc,,d % comment, e") == [("a", 0), ("b", 0), ("c", 0), ("d", 0)]
    assert scan("'\\101\\n\\z\\\\'") == [("A\nz\\", 1)]          # octal, newline, a needless escape, backslash
    assert scan("{1 x, 2 '?'}") == [("{", 2), ("1", 0), ("x", 0), ("2", 0), ("?", 1), ("}", 2)]
    assert scan("ab'c d'e") == [("ab", 0), ("c d", 1), ("e", 0)]
    with pytest.raises(ValueError, match="unterminated quote"):
        scan("'open")


# ------------------------------------------------------------------------------ ARFF as Weka reads it (issue 27)
def test_a_quoted_question_mark_is_the_value_and_a_bare_one_missing(tmp_path):
    frame = _arff(tmp_path, "@relation r\n@attribute a {'?',b}\n@attribute s string\n@data\n'?','?'\n?,?\nb,\"?\"\n")
    assert frame["a"].tolist()[0] == "?" and pd.isna(frame["a"].iloc[1]) and frame["a"].iloc[2] == "b"
    assert list(frame["a"].cat.categories) == ["?", "b"]
    assert frame["s"].iloc[0] == frame["s"].iloc[2] == "?" and pd.isna(frame["s"].iloc[1])


def test_anneal_reads_its_quoted_question_marks_as_values():
    """anneal declares '?' as a value of 29 nominal attributes and writes it quoted: Weka and JNCC2 read it
    as a value, so 'family' has no missing value (it had 86 % before issue 27)."""
    X = load("anneal", "zaffalon2012").X
    assert not X["family"].isna().any() and (X["family"] == "?").mean() > 0.8
    declaring = [c for c in X.columns if isinstance(X[c].dtype, pd.CategoricalDtype) and "?" in X[c].cat.categories]
    assert len(declaring) == 29 and int(X[declaring].isna().to_numpy().sum()) == 0


def _utf8_file(tmp_path, body: bytes) -> Path:
    path = tmp_path / "enc.arff"
    path.write_bytes(b"@relation r\n@attribute s string\n@data\n" + body)
    return path


def test_the_encoding_is_detected_per_file(tmp_path):
    assert read_arff(_utf8_file(tmp_path, "'café'\n'naïve'\n".encode("utf-8")))["s"].tolist() == ["café", "naïve"]
    assert read_arff(_utf8_file(tmp_path, "'café'\n".encode("latin-1")))["s"].tolist() == ["café"]  # latin-1 throughout
    bom = b"\xef\xbb\xbf" + _utf8_file(tmp_path, "'é'\n".encode("utf-8")).read_bytes()
    (tmp_path / "bom.arff").write_bytes(bom)
    assert read_arff(tmp_path / "bom.arff")["s"].tolist() == ["é"]


def test_one_stray_byte_in_a_utf8_file_is_an_error_not_a_switch_to_latin1(tmp_path):
    path = _utf8_file(tmp_path, "'café'\n'naïve'\n".encode("utf-8") + b"'stray \xff'\n")
    with pytest.raises(ArffFormatError, match=r"line 6: byte 0xff is not UTF-8.*mixes encodings.*encoding="):
        read_arff(path)
    # the caller says which encoding: read whole in it
    assert read_arff(path, encoding="latin-1")["s"].tolist()[2] == "stray \xff"
    with pytest.raises(ArffFormatError, match=r"line 6: byte 0xff is not utf-8"):
        read_arff(path, encoding="utf-8")
    with pytest.raises(ValueError, match="encoding must be a codec name"):
        read_arff(path, encoding="no-such-codec")


def test_java_numbers_and_odd_characters(tmp_path):
    frame = _arff(tmp_path, "@relation r\n@attribute n numeric\n@data\n1f\n0x1p3\nNaN\n-Infinity\n'2.5'\n")
    np.testing.assert_array_equal(frame["n"].to_numpy(), [1.0, 8.0, np.nan, -np.inf, 2.5])
    frame = _arff(tmp_path, "@relation r\n@attribute s string\n@attribute t string\n@data\n'a\x85b' c\xa0d\n")
    assert frame.iloc[0].tolist() == ["a\x85b", "c\xa0d"]                # NEL and NBSP are no line end, no space
