"""Imports scripts/airflow/yarn_gnn_dag.py against stand-ins for the few Airflow names it uses, then checks its
wiring and runs its tasks' commands for real. Airflow is not installed here; the stand-ins reproduce only what
Airflow documents for these names:
  - BashOperator runs `bash -c bash_command` with `env` (Jinja-rendered, on top of os.environ when append_env);
    exit 0 is success, a status in skip_on_exit_code raises AirflowSkipException, any other raises
    AirflowException.
  - A task that raises AirflowFailException fails at once; any other exception is retried while tries remain
    (`retries` from default_args).
  - `with DAG(default_args=...)` gives its operators those arguments; `a >> b` makes a upstream of b.
Usage: python3 airflow_dag_check.py DAG_FILE {airflow2|airflow3} SCENARIO...; prints one line per check.
Scenarios: wiring, run (train then infer with the params' defaults), bad-input (infer with a missing nodes table),
fail-1 (YARN_GNN_FAKE_EXIT=1 makes the fake `yarn` exit 1), and import-is-offline is always checked.
"""
import importlib.util
import os
import re
import socket
import subprocess
import sys
import types

dag_file, flavour, scenarios = sys.argv[1], sys.argv[2], sys.argv[3:]


class AirflowException(Exception):
    pass


class AirflowSkipException(AirflowException):
    pass


class AirflowFailException(AirflowException):
    pass


_current_dag = []


class DAG:
    def __init__(self, dag_id, params=None, default_args=None, **kwargs):
        self.dag_id = dag_id
        self.params = dict(params or {})
        self.default_args = dict(default_args or {})
        self.kwargs = kwargs
        self.tasks = {}

    def __enter__(self):
        _current_dag.append(self)
        return self

    def __exit__(self, *exc):
        _current_dag.pop()


class BashOperator:
    def __init__(self, *, task_id, bash_command, env=None, append_env=False, skip_on_exit_code=99, **kwargs):
        dag = _current_dag[-1]
        args = dict(dag.default_args)
        args.update(kwargs)
        self.task_id = task_id
        self.bash_command = bash_command
        self.env = env
        self.append_env = append_env
        codes = skip_on_exit_code
        self.skip_on_exit_code = [] if codes is None else list(codes) if hasattr(codes, "__iter__") else [codes]
        self.retries = args.get("retries", 0)
        self.retry_delay = args.get("retry_delay")
        self.upstream = set()
        self.dag = dag
        dag.tasks[task_id] = self

    def __rshift__(self, other):
        other.upstream.add(self.task_id)
        return other

    def execute(self, context):
        env = dict(os.environ) if self.append_env else {}
        for k, v in (self.env or {}).items():
            env[k] = render(v, context)
        result = subprocess.run(["bash", "-c", self.bash_command], env=env)
        if result.returncode in self.skip_on_exit_code:
            raise AirflowSkipException(f"Bash command returned exit code {result.returncode}. Skipping.")
        if result.returncode != 0:
            raise AirflowException(f"Bash command failed with exit code {result.returncode}")
        return None


def render(template, context):
    """The two Jinja forms the DAG's env uses ({{ params.NAME }} and {{ ds }}); anything else is an error."""

    def one(m):
        expr = m.group(1).strip()
        if expr == "ds":
            return context["ds"]
        if expr.startswith("params."):
            return str(context["params"][expr[len("params."):]])
        raise SystemExit(f"FAIL template {{{{ {expr} }}}} is not one the check renders")

    return re.sub(r"\{\{(.*?)\}\}", one, template)


def outcome(task, error):
    """What Airflow does with a task's first try that raised error."""
    if error is None:
        return "success"
    if isinstance(error, AirflowFailException):
        return "failed"
    if isinstance(error, AirflowSkipException):
        return "skipped"
    return "up_for_retry" if task.retries >= 1 else "failed"


def install_stubs():
    def module(name, **attrs):
        m = types.ModuleType(name)
        m.__dict__.update(attrs)
        sys.modules[name] = m
        return m

    module("airflow", DAG=DAG if flavour == "airflow2" else None)
    module("airflow.exceptions", AirflowException=AirflowException, AirflowSkipException=AirflowSkipException,
           AirflowFailException=AirflowFailException)
    if flavour == "airflow3":
        module("airflow.sdk", DAG=DAG)
        module("airflow.providers")
        module("airflow.providers.standard")
        module("airflow.providers.standard.operators")
        module("airflow.providers.standard.operators.bash", BashOperator=BashOperator)
    else:
        module("airflow.operators")
        module("airflow.operators.bash", BashOperator=BashOperator)


def import_offline():
    """Imports the DAG file with sockets and subprocesses refused: parsing must do neither."""

    def refuse(*a, **k):
        raise AssertionError("the DAG file opened a socket or a process while being parsed")

    saved = socket.socket.connect, socket.create_connection, subprocess.Popen.__init__
    socket.socket.connect = refuse
    socket.create_connection = refuse
    subprocess.Popen.__init__ = refuse
    try:
        spec = importlib.util.spec_from_file_location("yarn_gnn_dag", dag_file)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        socket.socket.connect, socket.create_connection, subprocess.Popen.__init__ = saved
    print("OK import-is-offline")
    return mod


def context(dag, **overrides):
    params = dict(dag.params)
    params.update(overrides)
    return {"params": params, "ds": "2026-12-01"}


def run(task, ctx):
    try:
        task.execute(ctx)
        return outcome(task, None)
    except AirflowException as e:
        return outcome(task, e)


install_stubs()
module = import_offline()
dags = [v for v in vars(module).values() if isinstance(v, DAG)]
if len(dags) != 1:
    raise SystemExit(f"FAIL the file defines {len(dags)} DAGs")
dag = dags[0]
for scenario in scenarios:
    if scenario == "wiring":
        names = sorted(dag.tasks)
        train, infer = dag.tasks.get("train"), dag.tasks.get("infer")
        ok = names == ["infer", "train"] and infer.upstream == {"train"} and not train.upstream
        print(("OK" if ok else "FAIL") + f" wiring tasks={names} infer.upstream={sorted(infer.upstream)}")
        print(f"INFO retries train={train.retries} infer={infer.retries}")
        print(f"INFO skip_on_exit_code train={train.skip_on_exit_code} infer={infer.skip_on_exit_code}")
    elif scenario == "run":
        for name in ("train", "infer"):
            print(f"RESULT {name} {run(dag.tasks[name], context(dag))}")
    elif scenario == "bad-input":
        missing = dag.params["nodes"] + "-missing"
        print(f"RESULT infer-bad-input {run(dag.tasks['infer'], context(dag, nodes=missing))}")
    elif scenario == "fail-1":
        os.environ["YARN_GNN_FAKE_EXIT"] = "1"
        try:
            print(f"RESULT infer-exit-1 {run(dag.tasks['infer'], context(dag))}")
        finally:
            del os.environ["YARN_GNN_FAKE_EXIT"]
    else:
        raise SystemExit(f"FAIL unknown scenario {scenario}")
