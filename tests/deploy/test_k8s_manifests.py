"""k8s/: the manifests are valid and agree with the code and with each other.

- Core kinds (PVC, Service, StatefulSet, ConfigMap) and every pod template inside the KubeRay
  resources pass the Kubernetes OpenAPI schemas shipped with ``kubernetes-validate`` (strict:
  unknown fields are errors), for the oldest and newest Kubernetes minor it ships.
- KubeRay kinds (RayJob, RayService and their RayCluster spec) are checked against the fields
  their CRDs (ray.io/v1) require, written out below, plus what the operator needs to act (an
  entrypoint, a Serve config), string-valued ``rayStartParams`` and sane replica bounds.
- Consistency: each RayJob's entrypoint is a jobs/*.py script the image copies, and its arguments
  parse with that script's own parser; the index config in the ConfigMap is a valid IndexConfig
  whose store URLs name the SPARQL Service and its port, which match the StatefulSet; the Serve
  config passes Ray Serve's schema and its application builds from its ``args``; every Ray pod
  mounts the data PVC where the paths point; images and Ray versions agree with k8s/Dockerfile.

Each check returns the problems it finds, so the negative tests feed it broken copies.
"""

from __future__ import annotations

import copy
import importlib.util
import re
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

kubernetes_validate = pytest.importorskip("kubernetes_validate", reason="the dev extra (kubernetes-validate)")

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "k8s"
IMAGE_ROOT = "/app"  # where k8s/Dockerfile puts the repository's jobs/ (WORKDIR)
CORE_KINDS = {"PersistentVolumeClaim", "Service", "StatefulSet", "ConfigMap"}
RAY_KINDS = {"RayJob", "RayService"}

Doc = dict[str, Any]


# -- loading ---------------------------------------------------------------------------------------


def _load_all() -> list[Doc]:
    docs = []
    for path in sorted(K8S.glob("*.yaml")):
        docs += [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    return docs


@pytest.fixture
def docs() -> list[Doc]:
    return _load_all()


def _one(docs: list[Doc], kind: str, name: str | None = None) -> Doc:
    found = [d for d in docs if d["kind"] == kind and (name is None or d["metadata"]["name"] == name)]
    assert len(found) == 1, f"expected one {kind} {name or ''}, found {len(found)}"
    return found[0]


def _cluster_spec(doc: Doc) -> Doc:
    return doc["spec"]["rayClusterSpec" if doc["kind"] == "RayJob" else "rayClusterConfig"]


def _pod_templates(cluster: Doc) -> Iterator[tuple[str, Doc]]:
    yield "head", cluster["headGroupSpec"]["template"]
    for group in cluster.get("workerGroupSpecs") or []:
        yield group.get("groupName", "?"), group["template"]


# -- Kubernetes schemas -----------------------------------------------------------------------------


def _k8s_versions() -> list[str]:
    from kubernetes_validate.utils import all_versions

    versions = all_versions()
    return [versions[0], versions[-1]]


def schema_problems(doc: Doc) -> list[str]:
    """Errors of a core-kind resource against the shipped Kubernetes schemas (strict)."""
    problems = []
    for version in _k8s_versions():
        try:
            kubernetes_validate.validate(doc, version, strict=True)
        except kubernetes_validate.ValidationError as e:
            where = "/".join(str(p) for p in e.path)
            problems.append(f"{doc['kind']} {doc['metadata'].get('name')} (k8s {version}) at {where}: {e.message}")
    return problems


def pod_template_problems(doc: Doc) -> list[str]:
    """The pod templates inside a KubeRay resource, validated as Pods."""
    problems = []
    for group, template in _pod_templates(_cluster_spec(doc)):
        pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"{doc['metadata']['name']}-{group}"}}
        pod["spec"] = template.get("spec")
        problems += [f"{doc['kind']} {group} pod: {p}" for p in schema_problems(pod)]
    return problems


# -- KubeRay required fields (ray.io/v1 CRDs) -------------------------------------------------------

# Required by the CRDs' OpenAPI schemas (kuberay ray-operator/config/crd/bases), for the parts we use;
# older operator releases also require rayStartParams, so it is asked for everywhere.
CLUSTER_REQUIRED = ("headGroupSpec",)
HEAD_REQUIRED = ("rayStartParams", "template")
WORKER_REQUIRED = ("groupName", "minReplicas", "maxReplicas", "rayStartParams", "template")
# Not required by the CRD schema but by the operator to do anything with our resources.
RAYJOB_REQUIRED = ("entrypoint", "rayClusterSpec")
RAYSERVICE_REQUIRED = ("serveConfigV2", "rayClusterConfig")
SUBMISSION_MODES = {"K8sJobMode", "HTTPMode", "InteractiveMode"}


def _missing(node: Any, keys: tuple[str, ...], where: str) -> list[str]:
    if not isinstance(node, dict):
        return [f"{where}: not a mapping"]
    return [f"{where}: missing {k}" for k in keys if node.get(k) in (None, "")]


def _cluster_problems(cluster: Any, where: str) -> list[str]:
    problems = _missing(cluster, CLUSTER_REQUIRED, where)
    if problems:
        return problems
    head = cluster["headGroupSpec"]
    problems += _missing(head, HEAD_REQUIRED, f"{where}.headGroupSpec")
    groups = cluster.get("workerGroupSpecs") or []
    names = [g.get("groupName") for g in groups if isinstance(g, dict)]
    if len(set(names)) != len(names):
        problems.append(f"{where}: worker group names repeat: {names}")
    for i, group in enumerate(groups):
        at = f"{where}.workerGroupSpecs[{i}]"
        problems += _missing(group, WORKER_REQUIRED, at)
        lo, n, hi = group.get("minReplicas"), group.get("replicas", group.get("minReplicas")), group.get("maxReplicas")
        if all(isinstance(v, int) for v in (lo, n, hi)) and not 0 <= lo <= n <= hi:
            problems.append(f"{at}: needs 0 <= minReplicas <= replicas <= maxReplicas, got {lo}, {n}, {hi}")
    for at, params in [(f"{where}.headGroupSpec", head.get("rayStartParams"))] + [
        (f"{where}.workerGroupSpecs[{i}]", g.get("rayStartParams")) for i, g in enumerate(groups)
    ]:
        # map[string]string in the CRD: `num-cpus: 1` is refused by the API server
        for key, value in (params or {}).items():
            if not isinstance(value, str):
                problems.append(f"{at}.rayStartParams.{key}: must be a string, got {value!r}")
    for group, template in _pod_templates(cluster) if not problems else []:
        containers = ((template or {}).get("spec") or {}).get("containers") or []
        if not containers:
            problems.append(f"{where} {group}: no containers")
        for c in containers:
            problems += _missing(c, ("name", "image"), f"{where} {group} container")
    return problems


def kuberay_problems(doc: Doc) -> list[str]:
    """Required fields and values of a RayJob or RayService (ours: K8sJobMode submissions)."""
    kind, name = doc.get("kind"), (doc.get("metadata") or {}).get("name")
    where = f"{kind} {name}"
    problems = [] if doc.get("apiVersion") == "ray.io/v1" else [f"{where}: apiVersion must be ray.io/v1"]
    problems += _missing(doc.get("metadata"), ("name",), f"{where}.metadata")
    spec = doc.get("spec")
    if kind == "RayJob":
        problems += _missing(spec, RAYJOB_REQUIRED, f"{where}.spec")
        if isinstance(spec, dict):
            mode = spec.get("submissionMode", "K8sJobMode")
            if mode not in SUBMISSION_MODES:
                problems.append(f"{where}.spec.submissionMode: {mode!r} is not one of {sorted(SUBMISSION_MODES)}")
            if "runtimeEnvYAML" in spec and not isinstance(yaml.safe_load(spec["runtimeEnvYAML"]), dict):
                problems.append(f"{where}.spec.runtimeEnvYAML: not a YAML mapping")
            if spec.get("rayClusterSpec"):
                problems += _cluster_problems(spec["rayClusterSpec"], f"{where}.spec.rayClusterSpec")
    elif kind == "RayService":
        problems += _missing(spec, RAYSERVICE_REQUIRED, f"{where}.spec")
        if isinstance(spec, dict) and spec.get("rayClusterConfig"):
            problems += _cluster_problems(spec["rayClusterConfig"], f"{where}.spec.rayClusterConfig")
    else:
        problems.append(f"{where}: not a KubeRay kind this checker knows")
    return problems


# -- consistency with the code and between manifests -----------------------------------------------


def _job_module(script: Path):
    spec = importlib.util.spec_from_file_location(f"dualgraph_job_{script.stem}", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def entrypoint_problems(doc: Doc) -> list[str]:
    """The RayJob runs a jobs/*.py script the image holds (or a `dualgraph` subcommand), and its
    arguments parse with that program's own parser."""
    argv = shlex.split(doc["spec"].get("entrypoint") or "")
    where = f"RayJob {doc['metadata']['name']} entrypoint"
    if argv[:1] == ["dualgraph"]:
        from dualgraph.cli import build_parser

        parser, args = build_parser(), argv[1:]
    elif argv[:1] == ["python"] and len(argv) > 1 and argv[1].startswith(f"{IMAGE_ROOT}/jobs/"):
        script = ROOT / argv[1].removeprefix(f"{IMAGE_ROOT}/")
        if not script.is_file():
            return [f"{where}: {argv[1]} is not in the repository ({script.relative_to(ROOT)})"]
        parser, args = _job_module(script).build_parser(), argv[2:]
    else:
        return [f"{where}: expected `python {IMAGE_ROOT}/jobs/NAME.py …` or `dualgraph …`, got {argv[:2]}"]
    parser.exit_on_error = False
    try:
        parser.parse_args(args)
    except (SystemExit, Exception) as e:  # argparse exits on unknown options even without exit_on_error
        return [f"{where}: its arguments do not parse: {args} ({type(e).__name__}: {e})"]
    return []


def _job_args(doc: Doc) -> Any:
    argv = shlex.split(doc["spec"]["entrypoint"])
    script = ROOT / argv[1].removeprefix(f"{IMAGE_ROOT}/")
    return _job_module(script).build_parser().parse_args(argv[2:])


def _mounts(template: Doc) -> dict[str, Doc]:
    """mountPath -> the volume mounted there, for the pod's first container."""
    spec = template["spec"]
    volumes = {v["name"]: v for v in spec.get("volumes") or []}
    return {m["mountPath"]: volumes.get(m["name"], {}) for m in spec["containers"][0].get("volumeMounts") or []}


def _mount_for(path: str, mounts: dict[str, Doc]) -> Doc | None:
    best = max((m for m in mounts if path == m or path.startswith(m.rstrip("/") + "/")), key=len, default=None)
    return None if best is None else mounts[best]


def path_problems(doc: Doc, paths: list[str], pvc: Doc, config_map: Doc) -> list[str]:
    """Every path the resource uses lies on a volume every Ray pod mounts: the data PVC, or the
    ConfigMap for files under its mount."""
    problems = []
    for group, template in _pod_templates(_cluster_spec(doc)):
        mounts = _mounts(template)
        for path in paths:
            volume = _mount_for(path, mounts)
            where = f"{doc['kind']} {doc['metadata']['name']} {group}: {path}"
            if volume is None:
                problems.append(f"{where} is on no mounted volume")
            elif "persistentVolumeClaim" in volume:
                if volume["persistentVolumeClaim"]["claimName"] != pvc["metadata"]["name"]:
                    problems.append(f"{where} is on claim {volume['persistentVolumeClaim']['claimName']}")
            elif "configMap" in volume:
                key = path.rsplit("/", 1)[-1]
                if volume["configMap"]["name"] != config_map["metadata"]["name"] or key not in config_map["data"]:
                    problems.append(f"{where}: ConfigMap {volume['configMap']['name']} has no key {key}")
            else:
                problems.append(f"{where} is on a volume that is neither the data PVC nor the ConfigMap")
    return problems


def store_problems(config_map: Doc, service: Doc, statefulset: Doc) -> list[str]:
    """The index config's store URLs reach the SPARQL Service, whose port leads to the StatefulSet's."""
    from dualgraph.config import IndexConfig

    problems = []
    data = yaml.safe_load(config_map["data"]["index.yaml"])
    try:
        store = IndexConfig(**data).store
    except ValueError as e:
        return [f"ConfigMap index.yaml is not a valid IndexConfig: {e}"]
    if store.kind != "endpoint":
        problems.append(f"index.yaml: store kind {store.kind!r}, not the SPARQL server")
    svc_name, svc_ports = service["metadata"]["name"], {p["port"]: p for p in service["spec"]["ports"]}
    pod = statefulset["spec"]["template"]
    container = pod["spec"]["containers"][0]
    named = {p.get("name"): p["containerPort"] for p in container.get("ports") or []}
    paths = {"query_url": "/query", "update_url": "/update", "graph_store_url": "/store"}  # Oxigraph's server
    for field, path in paths.items():
        url = getattr(store, field)
        parts = urlsplit(url or "")
        if parts.hostname != svc_name or parts.path != path:
            problems.append(f"index.yaml store.{field} {url!r}: expected http://{svc_name}:PORT{path}")
        if parts.port not in svc_ports:
            problems.append(f"index.yaml store.{field}: port {parts.port} is not a port of Service {svc_name}")
    for port in svc_ports.values():
        target = port.get("targetPort", port["port"])
        resolved = named.get(target) if isinstance(target, str) else target
        if resolved not in named.values():
            problems.append(f"Service {svc_name} targets {target!r}, which the StatefulSet's container does not expose")
        bind = re.search(r":(\d+)$", next((a for a in container.get("args") or [] if re.match(r"[\d.]+:\d+$", a)), ""))
        if not bind or int(bind.group(1)) != resolved:
            problems.append(
                f"the server binds {bind and bind.group(0)!r}, the Service targets container port {resolved}"
            )
    if statefulset["spec"]["serviceName"] != svc_name:
        problems.append(f"StatefulSet serviceName {statefulset['spec']['serviceName']!r} is not Service {svc_name!r}")
    labels = pod["metadata"]["labels"]
    if any(labels.get(k) != v for k, v in service["spec"]["selector"].items()):
        problems.append(
            f"Service {svc_name} selects {service['spec']['selector']}, the StatefulSet's pods are {labels}"
        )
    if any(labels.get(k) != v for k, v in statefulset["spec"]["selector"]["matchLabels"].items()):
        problems.append("the StatefulSet's selector does not match its own pod labels")
    if not container["image"].startswith("ghcr.io/oxigraph/oxigraph:") or "--union-default-graph" not in container.get(
        "args", []
    ):
        problems.append("the SPARQL server is not Oxigraph's image with --union-default-graph")
    return problems


def _dockerfile_ray_version() -> str:
    text = (K8S / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(rf"^COPY .*jobs/ {IMAGE_ROOT}/jobs/", text, re.M), "the image must copy jobs/ to /app/jobs/"
    return re.search(r"^ARG RAY_VERSION=(\S+)", text, re.M).group(1)


def image_problems(ray_docs: list[Doc]) -> list[str]:
    version, images, problems = _dockerfile_ray_version(), set(), []
    for doc in ray_docs:
        cluster = _cluster_spec(doc)
        if cluster.get("rayVersion") != version:
            problems.append(
                f"{doc['kind']} {doc['metadata']['name']}: rayVersion {cluster.get('rayVersion')!r}, image {version}"
            )
        images |= {c["image"] for _, t in _pod_templates(cluster) for c in t["spec"]["containers"]}
    if len(images) != 1:
        problems.append(f"the Ray pods run different images: {sorted(images)}")
    return problems


def serve_problems(doc: Doc) -> list[str]:
    """The Serve config passes Ray Serve's schema; its HTTP port is the one the pods expose; each
    application's import path is a builder that builds from the config's args."""
    from ray.serve._private.api import call_user_app_builder_with_args_if_necessary
    from ray.serve.schema import ServeDeploySchema

    try:
        config = ServeDeploySchema.model_validate(yaml.safe_load(doc["spec"]["serveConfigV2"]))
    except Exception as e:
        return [f"serveConfigV2 fails Ray Serve's schema: {e}"]
    problems = []
    port = config.http_options.port
    for group, template in _pod_templates(_cluster_spec(doc)):
        exposed = {p["containerPort"] for p in template["spec"]["containers"][0].get("ports") or []}
        if port not in exposed:
            problems.append(f"Serve listens on {port}, the {group} pod exposes {sorted(exposed)}")
    for app in config.applications:
        module_name, _, attr = app.import_path.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as e:
            problems.append(f"application {app.name}: cannot import {module_name} ({e})")
            continue
        builder = getattr(module, attr, None)
        if builder is None:
            problems.append(f"application {app.name}: {module_name} has no {attr}")
            continue
        try:
            call_user_app_builder_with_args_if_necessary(builder, app.args or {})
        except Exception as e:
            problems.append(f"application {app.name}: {app.import_path} does not build from its args: {e}")
    return problems


# -- the manifests as shipped ----------------------------------------------------------------------


def test_every_manifest_is_a_kind_we_check(docs):
    kinds = sorted(d["kind"] for d in docs)
    assert set(kinds) <= CORE_KINDS | RAY_KINDS, kinds
    assert kinds.count("RayJob") == 2 and kinds.count("RayService") == 1
    assert {"PersistentVolumeClaim", "Service", "StatefulSet", "ConfigMap"} <= set(kinds)
    names = [(d["kind"], d["metadata"]["name"]) for d in docs]
    assert len(set(names)) == len(names), names


def test_core_kinds_pass_the_kubernetes_schemas(docs):
    problems = [p for d in docs if d["kind"] in CORE_KINDS for p in schema_problems(d)]
    assert problems == []


def test_pod_templates_inside_kuberay_resources_pass_the_pod_schema(docs):
    problems = [p for d in docs if d["kind"] in RAY_KINDS for p in pod_template_problems(d)]
    assert problems == []


def test_kuberay_resources_have_their_required_fields(docs):
    problems = [p for d in docs if d["kind"] in RAY_KINDS for p in kuberay_problems(d)]
    assert problems == []


def test_job_entrypoints_exist_and_their_arguments_parse(docs):
    jobs = [d for d in docs if d["kind"] == "RayJob"]
    assert [p for d in jobs for p in entrypoint_problems(d)] == []
    scripts = {shlex.split(d["spec"]["entrypoint"])[1] for d in jobs}
    assert scripts == {f"{IMAGE_ROOT}/jobs/index_catalog.py", f"{IMAGE_ROOT}/jobs/answer_questions.py"}


def test_the_index_store_is_the_sparql_service(docs):
    assert store_problems(_one(docs, "ConfigMap"), _one(docs, "Service"), _one(docs, "StatefulSet")) == []


def test_jobs_and_the_service_share_the_index_and_its_volume(docs):
    pvc, config_map = _one(docs, "PersistentVolumeClaim"), _one(docs, "ConfigMap")
    index_job, ask_job = _one(docs, "RayJob", "dualgraph-index"), _one(docs, "RayJob", "dualgraph-ask")
    service = _one(docs, "RayService")
    ix, ask = _job_args(index_job), _job_args(ask_job)
    apps = yaml.safe_load(service["spec"]["serveConfigV2"])["applications"]
    assert ix.index == ask.index == apps[0]["args"]["index"]
    problems = path_problems(index_job, [ix.dataset, ix.index, ix.config], pvc, config_map)
    problems += path_problems(ask_job, [ask.index, ask.questions, ask.out], pvc, config_map)
    problems += path_problems(service, [apps[0]["args"]["index"]], pvc, config_map)
    assert problems == []
    assert "ReadWriteMany" in pvc["spec"]["accessModes"]  # head and workers on several nodes share it


def test_ray_pods_run_the_image_k8s_dockerfile_builds(docs):
    assert image_problems([d for d in docs if d["kind"] in RAY_KINDS]) == []


def test_the_serve_config_deploys_the_dualgraph_application(docs):
    pytest.importorskip("ray.serve", reason="the serve extra")
    assert serve_problems(_one(docs, "RayService")) == []


# -- broken copies are caught ----------------------------------------------------------------------


def _broken(kind: str, name: str | None, change: Callable[[Doc], Any]) -> tuple[list[Doc], Doc]:
    docs = _load_all()
    doc = _one(docs, kind, name)
    change(doc)
    return docs, doc


@pytest.mark.parametrize(
    ("kind", "change"),
    [
        ("StatefulSet", lambda d: d["spec"].pop("selector")),
        ("StatefulSet", lambda d: d["spec"].update(replica=1)),  # misspelt: strict schemas refuse it
        ("Service", lambda d: d["spec"]["ports"][0].update(port="7878")),
        ("PersistentVolumeClaim", lambda d: d["spec"]["resources"]["requests"].update(storage=[200])),
    ],
)
def test_a_broken_core_resource_fails_the_schema(kind, change):
    _, doc = _broken(kind, None, change)
    assert schema_problems(doc)


def test_a_broken_pod_template_fails_the_pod_schema():
    _, doc = _broken(
        "RayJob",
        "dualgraph-index",
        lambda d: d["spec"]["rayClusterSpec"]["headGroupSpec"]["template"]["spec"]["containers"][0].update(
            imagePullPolicy=3
        ),
    )
    assert pod_template_problems(doc)


@pytest.mark.parametrize(
    ("kind", "name", "change", "expected"),
    [
        ("RayJob", "dualgraph-index", lambda d: d["spec"].pop("entrypoint"), "missing entrypoint"),
        (
            "RayJob",
            "dualgraph-ask",
            lambda d: d["spec"]["rayClusterSpec"].pop("headGroupSpec"),
            "missing headGroupSpec",
        ),
        (
            "RayJob",
            "dualgraph-index",
            lambda d: d["spec"]["rayClusterSpec"]["headGroupSpec"].pop("template"),
            "missing template",
        ),
        (
            "RayJob",
            "dualgraph-index",
            lambda d: d["spec"]["rayClusterSpec"]["workerGroupSpecs"][0].pop("groupName"),
            "missing groupName",
        ),
        (
            "RayJob",
            "dualgraph-ask",
            lambda d: d["spec"]["rayClusterSpec"]["workerGroupSpecs"][0].update(maxReplicas=1, replicas=2),
            "minReplicas <= replicas",
        ),
        (
            "RayJob",
            "dualgraph-index",
            lambda d: d["spec"]["rayClusterSpec"]["headGroupSpec"]["rayStartParams"].update({"num-cpus": 1}),
            "must be a string",
        ),
        ("RayJob", "dualgraph-index", lambda d: d["spec"].update(submissionMode="Batch"), "submissionMode"),
        ("RayService", None, lambda d: d["spec"].pop("serveConfigV2"), "missing serveConfigV2"),
        ("RayService", None, lambda d: d["spec"].pop("rayClusterConfig"), "missing rayClusterConfig"),
        ("RayService", None, lambda d: d.update(apiVersion="ray.io/v1alpha1"), "apiVersion"),
        (
            "RayService",
            None,
            lambda d: d["spec"]["rayClusterConfig"]["workerGroupSpecs"][0]["template"]["spec"]["containers"][0].pop(
                "image"
            ),
            "missing image",
        ),
    ],
)
def test_a_kuberay_resource_missing_what_it_needs_is_caught(kind, name, change, expected):
    _, doc = _broken(kind, name, change)
    problems = kuberay_problems(doc)
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize(
    ("name", "entrypoint", "expected"),
    [
        ("dualgraph-index", "python /app/jobs/index_everything.py /data/ds /data/ix", "not in the repository"),
        ("dualgraph-index", "python /app/jobs/index_catalog.py /data/ds /data/ix --workers 4", "do not parse"),
        ("dualgraph-ask", "python /app/jobs/answer_questions.py /data/ix /data/q.json", "do not parse"),
        (
            "dualgraph-ask",
            "python /app/jobs/answer_questions.py /data/ix /data/q.json /data/a.jsonl --strategy best",
            "do not parse",
        ),
        ("dualgraph-index", "dualgraph index /data/ds --index /data/ix --threads 8", "do not parse"),
        ("dualgraph-index", "bash -c 'python jobs/index_catalog.py'", "expected"),
    ],
)
def test_an_entrypoint_the_code_does_not_accept_is_caught(name, entrypoint, expected):
    _, doc = _broken("RayJob", name, lambda d: d["spec"].update(entrypoint=entrypoint))
    problems = entrypoint_problems(doc)
    assert any(expected in p for p in problems), problems


def test_a_dualgraph_subcommand_entrypoint_with_real_flags_passes():
    _, doc = _broken(
        "RayJob",
        "dualgraph-index",
        lambda d: d["spec"].update(
            entrypoint="dualgraph index /data/ds --index /data/ix --ray-address auto --config /config/index.yaml"
        ),
    )
    assert entrypoint_problems(doc) == []


@pytest.mark.parametrize(
    ("kind", "change", "expected"),
    [
        ("Service", lambda d: d["spec"]["ports"][0].update(port=7879), "not a port of Service"),
        ("Service", lambda d: d["spec"]["ports"][0].update(targetPort="http"), "does not expose"),
        ("Service", lambda d: d["spec"]["selector"].update({"app.kubernetes.io/name": "virtuoso"}), "selects"),
        (
            "StatefulSet",
            lambda d: d["spec"]["template"]["spec"]["containers"][0]["ports"][0].update(containerPort=8890),
            "the server binds",
        ),
        (
            "StatefulSet",
            lambda d: d["spec"]["template"]["spec"]["containers"][0]["args"].remove("--union-default-graph"),
            "union-default-graph",
        ),
        ("StatefulSet", lambda d: d["spec"].update(serviceName="sparql"), "serviceName"),
        (
            "ConfigMap",
            lambda d: d["data"].update({"index.yaml": d["data"]["index.yaml"].replace("oxigraph:7878", "sparql:7878")}),
            "expected http://oxigraph",
        ),
        (
            "ConfigMap",
            lambda d: d["data"].update({"index.yaml": d["data"]["index.yaml"] + "workers: 3\n"}),
            "not a valid IndexConfig",
        ),
    ],
)
def test_a_store_that_does_not_line_up_is_caught(kind, change, expected):
    docs, _ = _broken(kind, None, change)
    problems = store_problems(_one(docs, "ConfigMap"), _one(docs, "Service"), _one(docs, "StatefulSet"))
    assert any(expected in p for p in problems), problems


def test_a_path_off_the_shared_volume_is_caught():
    docs = _load_all()
    pvc, config_map, job = (
        _one(docs, "PersistentVolumeClaim"),
        _one(docs, "ConfigMap"),
        _one(docs, "RayJob", "dualgraph-ask"),
    )
    assert any("on no mounted volume" in p for p in path_problems(job, ["/tmp/answers.jsonl"], pvc, config_map))
    workers = job["spec"]["rayClusterSpec"]["workerGroupSpecs"][0]["template"]["spec"]
    workers["volumes"][0]["persistentVolumeClaim"]["claimName"] = "scratch"
    assert any("is on claim scratch" in p for p in path_problems(job, ["/data/indexes/catalog"], pvc, config_map))


def test_mismatched_images_or_ray_versions_are_caught():
    docs = _load_all()
    ray_docs = [d for d in docs if d["kind"] in RAY_KINDS]
    broken = copy.deepcopy(ray_docs)
    broken[0]["spec"]["rayClusterSpec"]["rayVersion"] = "2.9.0"
    assert any("rayVersion" in p for p in image_problems(broken))
    broken = copy.deepcopy(ray_docs)
    _cluster_spec(broken[-1])["headGroupSpec"]["template"]["spec"]["containers"][0]["image"] = "rayproject/ray:latest"
    assert any("different images" in p for p in image_problems(broken))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda c: c["applications"][0].update(import_path="dualgraph.serve.app:no_such_builder"),
            "has no no_such_builder",
        ),
        (lambda c: c["applications"][0].update(import_path="dualgraph.serve.app:build_app"), "does not build"),
        (lambda c: c["applications"][0]["args"].update(workers=2), "does not build"),
        (lambda c: c["applications"][0]["args"]["serve"].update(replica=2), "does not build"),
        (lambda c: c["http_options"].update(port=9000), "Serve listens on 9000"),
        (lambda c: c["applications"][0].pop("import_path"), "Ray Serve's schema"),
    ],
)
def test_a_serve_config_that_cannot_deploy_is_caught(change, expected):
    pytest.importorskip("ray.serve", reason="the serve extra")

    def edit(doc: Doc) -> None:
        config = yaml.safe_load(doc["spec"]["serveConfigV2"])
        change(config)
        doc["spec"]["serveConfigV2"] = yaml.safe_dump(config)

    _, doc = _broken("RayService", None, edit)
    problems = serve_problems(doc)
    assert any(expected in p for p in problems), problems


def test_the_services_replicas_fit_the_workers_and_batches_can_fill(docs):
    """Serve's autoscaler may ask for max_replicas replicas of num_cpus each: the worker group at its
    largest must hold them, and each replica must hold a full batch of requests."""
    from dualgraph.serve.config import ServeConfig

    service = _one(docs, "RayService")
    args = yaml.safe_load(service["spec"]["serveConfigV2"])["applications"][0]["args"]["serve"]
    config = ServeConfig(**args)
    options = config.deployment_options()
    auto = options.get("autoscaling_config")
    assert auto is not None and auto["max_replicas"] > auto["min_replicas"]
    assert options["max_ongoing_requests"] >= config.max_batch_size
    cluster = service["spec"]["rayClusterConfig"]
    assert cluster.get("enableInTreeAutoscaling") is True  # workers follow the replicas asked for
    workers = cluster["workerGroupSpecs"][0]
    cpus = float(workers["template"]["spec"]["containers"][0]["resources"]["requests"]["cpu"])
    assert auto["max_replicas"] * config.num_cpus <= workers["maxReplicas"] * cpus
