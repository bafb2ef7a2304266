"""yarn-gnn from Airflow: `train` a model, then `infer` every node's embedding with it, on YARN.

Copy this file into the DAGs folder of an Airflow (2.6 or later, or 3) whose workers have a Hadoop client
(`yarn` on PATH, HADOOP_CONF_DIR set) and the yarn-gnn jar. Both tasks run `yarn jar yarn-gnn-<version>.jar`
exactly as a person would; yarn-gnn itself submits its ApplicationMaster and worker containers and exits when its
application has finished.

Exit status decides what Airflow does:
  0  success.
  1  the job failed while running (a lost container, a phase past --round-timeout): raised as AirflowException,
     so the task is retried (`retries`, `retry_delay`). Safe: a failed run leaves no part files and no _SUCCESS,
     and --overwrite replaces a previous output only once the new one is complete.
  2  bad usage or bad input (a missing table, a dangling edge endpoint, a model of the wrong width; nothing was
     written): raised as AirflowFailException, which fails the task at once whatever retries remain, since the
     same input fails the same way every time.
BashOperator alone retries every non-zero status; YarnGnnOperator below maps 2 through BashOperator's documented
`skip_on_exit_code` (the exception it raises for those statuses) into AirflowFailException.

Paths and sizes are DAG params (override them per run with `airflow dags trigger --conf '{...}'`, or in the UI);
their defaults come from YARN_GNN_* environment variables read when the file is parsed. Parsing does no I/O beyond
that: no network, no HDFS, no subprocess.
"""
from __future__ import annotations

import os
from datetime import datetime, timedelta

from airflow.exceptions import AirflowFailException, AirflowSkipException

try:  # Airflow 3, and Airflow 2 with the standard provider installed.
    from airflow.providers.standard.operators.bash import BashOperator
except ImportError:  # Airflow 2.6+
    from airflow.operators.bash import BashOperator

try:  # Airflow 3's task SDK.
    from airflow.sdk import DAG
except ImportError:
    from airflow import DAG

BAD_INPUT = 2  # yarn-gnn's exit status for bad usage or bad input (see the README's "Exit status").


class YarnGnnOperator(BashOperator):
    """A BashOperator running one yarn-gnn command: exit 2 fails without retry, exit 1 is retried."""

    def __init__(self, **kwargs):
        if "skip_on_exit_code" in kwargs:
            raise TypeError("YarnGnnOperator owns skip_on_exit_code: exit 2 is bad input, never a skip")
        super().__init__(skip_on_exit_code=[BAD_INPUT], **kwargs)

    def execute(self, context):
        try:
            return super().execute(context)
        except AirflowSkipException as e:
            # skip_on_exit_code is [2] only, so this is yarn-gnn's bad input: its one-line reason is in the log above.
            raise AirflowFailException(
                f"yarn-gnn refused its input (exit status {BAD_INPUT}); not retried: fix the input, then clear the task"
            ) from e


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


# One yarn-gnn command line: the jar and every path come from the environment below, filled from the params by
# Airflow's templating (never pasted into the command, so a path cannot inject shell syntax). `exec` makes the
# JVM the process Airflow signals when the task is killed (yarn-gnn then kills its YARN application).
YARN_GNN = 'exec yarn jar "$YARN_GNN_JAR"'

TRAIN_COMMAND = (
    YARN_GNN + ' train --edges "$EDGES" --nodes "$NODES" --model-spec "$MODEL_SPEC" --output "$MODEL_DIR"'
    ' --epochs "$EPOCHS" --workers "$WORKERS" --worker-memory "$WORKER_MEMORY_MB" --queue "$QUEUE" --overwrite'
)
INFER_COMMAND = (
    YARN_GNN + ' infer --edges "$EDGES" --nodes "$NODES" --model "$MODEL_DIR" --output "$EMBEDDINGS_DIR"'
    ' --workers "$WORKERS" --worker-memory "$WORKER_MEMORY_MB" --queue "$QUEUE" --overwrite'
)

# Templated per run: the model and the embeddings of one logical date ({{ ds }}) sit in their own directories, so
# infer reads exactly the model that this run's train committed.
JOB_ENV = {
    "YARN_GNN_JAR": "{{ params.jar }}",
    "EDGES": "{{ params.edges }}",
    "NODES": "{{ params.nodes }}",
    "MODEL_SPEC": "{{ params.model_spec }}",
    "MODEL_DIR": "{{ params.model_root }}/{{ ds }}",
    "EMBEDDINGS_DIR": "{{ params.embeddings_root }}/{{ ds }}",
    "EPOCHS": "{{ params.epochs }}",
    "WORKERS": "{{ params.workers }}",
    "WORKER_MEMORY_MB": "{{ params.worker_memory_mb }}",
    "QUEUE": "{{ params.queue }}",
}

with DAG(
    dag_id="yarn_gnn_train_infer",
    description="yarn-gnn: train a GNN on YARN, then infer every node's embedding with it",
    start_date=datetime(2026, 1, 1),
    schedule=_env("YARN_GNN_SCHEDULE", "@daily"),
    catchup=False,
    max_active_runs=1,  # one writer per output at a time
    params={
        "jar": _env("YARN_GNN_JAR", "/opt/yarn-gnn/yarn-gnn-0.1.0-SNAPSHOT.jar"),
        "edges": _env("YARN_GNN_EDGES", "hdfs:///data/gnn/graph/edges"),
        "nodes": _env("YARN_GNN_NODES", "hdfs:///data/gnn/graph/nodes"),
        "model_spec": _env("YARN_GNN_MODEL_SPEC", "hdfs:///data/gnn/spec.json"),
        "model_root": _env("YARN_GNN_MODEL_ROOT", "hdfs:///data/gnn/models"),
        "embeddings_root": _env("YARN_GNN_EMBEDDINGS_ROOT", "hdfs:///data/gnn/embeddings"),
        "epochs": _env("YARN_GNN_EPOCHS", "200"),
        "workers": _env("YARN_GNN_WORKERS", "8"),
        "worker_memory_mb": _env("YARN_GNN_WORKER_MEMORY_MB", "8192"),
        "queue": _env("YARN_GNN_QUEUE", "default"),
    },
    default_args={
        # Retries for exit 1 only: exit 2 raises AirflowFailException, which Airflow never retries.
        "retries": int(_env("YARN_GNN_RETRIES", "2")),
        "retry_delay": timedelta(minutes=5),
    },
    tags=["yarn-gnn"],
) as dag:
    train = YarnGnnOperator(task_id="train", bash_command=TRAIN_COMMAND, env=JOB_ENV, append_env=True)
    infer = YarnGnnOperator(task_id="infer", bash_command=INFER_COMMAND, env=JOB_ENV, append_env=True)
    train >> infer
