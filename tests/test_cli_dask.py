"""``credalbook reproduce --backend dask --scheduler ADDRESS`` on a real cluster: a scheduler and two
worker processes on 127.0.0.1, started with Dask's own command line, run a registered experiment's
ci subset; the rows equal the local run's and the cache is filled on the client's side."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

EXPERIMENT = "zaffalon2012_ncc_rejection"  # its ci subset: three grid cells, seconds each


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _reproduce(tmp_path: Path, label: str, *options: str) -> pd.DataFrame:
    out = tmp_path / f"{label}.csv"
    env = dict(os.environ, CREDALBOOK_CACHE=str(tmp_path / f"cache-{label}"), TQDM_DISABLE="1")
    subprocess.run([sys.executable, "-m", "credalbook", "reproduce", "--profile", "ci", "--only", EXPERIMENT,
                    "--output", str(out), *options], check=True, env=env, timeout=900)
    return pd.read_csv(out)


@pytest.fixture
def cluster(tmp_path):
    """The address of a scheduler with two single-threaded worker processes, all separate processes."""
    distributed = pytest.importorskip("distributed")
    dask = Path(sys.executable).parent / "dask"
    address = f"tcp://127.0.0.1:{_free_port()}"
    logs = tmp_path / "cluster.log"
    with open(logs, "w") as log:
        processes = [subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":")[-1],
                                       "--no-dashboard"], stdout=log, stderr=log, cwd=tmp_path)]
        try:
            processes += [subprocess.Popen([str(dask), "worker", address, "--nthreads", "1", "--no-dashboard",
                                            "--local-directory", str(tmp_path / f"worker-{i}"), "--name", f"w{i}"],
                                           stdout=log, stderr=log, cwd=tmp_path) for i in range(2)]
            with distributed.Client(address, timeout=60) as client:
                client.wait_for_workers(2, timeout=120)
            yield address
        finally:
            for process in reversed(processes):
                process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()


def test_reproduce_on_a_dask_cluster_equals_the_local_run(tmp_path, cluster):
    from distributed import Client

    local = _reproduce(tmp_path, "local", "--backend", "sequential")
    remote = _reproduce(tmp_path, "dask", "--backend", "dask", "--scheduler", cluster)
    pd.testing.assert_frame_equal(local, remote)
    assert len(local) == 60 and set(local["size"]) == {30, 100, 1000}
    # the workers ran the folds; the client cached them
    with Client(cluster, timeout=60) as client:
        ran = client.run_on_scheduler(lambda dask_scheduler: sorted(dask_scheduler.task_prefixes))
        assert len(client.scheduler_info()["workers"]) == 2
    assert any("rejection_task" in prefix for prefix in ran), ran
    assert len(list((tmp_path / "cache-dask").rglob("*.npz"))) == 3
