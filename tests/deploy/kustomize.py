"""A small kustomize renderer, for the features deploy/kubernetes uses (`resources` files and
folders, `labels` on metadata only, `images`, and strategic-merge `patches` found by kind and
name, `$patch: delete` included): the tests render the overlays with it where no kustomize
binary is available, and compare it with `kubectl kustomize` where one is."""

from pathlib import Path
from typing import Any

import yaml

Resource = dict[str, Any]
_FIELDS = {"apiVersion", "kind", "resources", "labels", "images", "patches"}


def kustomize_render(folder: Path) -> list[Resource]:
    """The resources `folder`'s kustomization.yaml builds; ValueError on a feature this
    renderer does not know (so a manifest change cannot be silently rendered wrong)."""
    kustomization = yaml.safe_load((folder / "kustomization.yaml").read_text())
    unknown = set(kustomization) - _FIELDS
    if unknown:
        raise ValueError(f"{folder}: kustomization fields this renderer lacks: {sorted(unknown)}")
    resources: list[Resource] = []
    for entry in kustomization.get("resources", []):
        path = folder / entry
        if path.is_dir():
            resources += kustomize_render(path)
        else:
            resources += [doc for doc in yaml.safe_load_all(path.read_text()) if doc]
    for group in kustomization.get("labels", []):
        if set(group) != {"pairs"}:
            raise ValueError(f"{folder}: only labels' pairs (metadata only) are rendered")
        for resource in resources:
            resource.setdefault("metadata", {}).setdefault("labels", {}).update(group["pairs"])
    for patch in kustomization.get("patches", []):
        if set(patch) != {"path"}:
            raise ValueError(f"{folder}: only patches from files (strategic merge) are rendered")
        for document in yaml.safe_load_all((folder / patch["path"]).read_text()):
            if document:
                resources = _patched(resources, document)
    for image in kustomization.get("images", []):
        for resource in resources:
            _retag(resource, image)
    return resources


def _key(resource: Resource) -> tuple[str, str, str]:
    group = resource["apiVersion"].rpartition("/")[0]
    return group, resource["kind"], resource["metadata"]["name"]


def _patched(resources: list[Resource], patch: Resource) -> list[Resource]:
    matches = [resource for resource in resources if _key(resource) == _key(patch)]
    if len(matches) != 1:
        raise ValueError(f"the patch of {_key(patch)} matches {len(matches)} resources")
    if patch.get("$patch") == "delete":
        return [resource for resource in resources if resource is not matches[0]]
    _merge(matches[0], patch)
    return resources


def _named_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, dict) and "name" in item
                                           for item in value)


def _merge(target: dict[str, Any], patch: dict[str, Any]) -> None:
    """Strategic merge as kustomize does it for these kinds: maps merge, lists of named
    items (containers, env, volumes) merge by name, other lists and values are replaced."""
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            _merge(target[key], value)
        elif _named_list(value) and _named_list(target.get(key)):
            by_name = {item["name"]: item for item in target[key]}
            for item in value:
                if item["name"] in by_name:
                    _merge(by_name[item["name"]], item)
                else:
                    target[key].append(item)
        else:
            target[key] = value


def _retag(node: Any, image: dict[str, str]) -> None:
    if isinstance(node, dict):
        for key in ("containers", "initContainers"):
            for container in node.get(key, []) if isinstance(node.get(key), list) else []:
                name = container.get("image", "").split("@")[0].rsplit(":", 1)[0]
                if name == image["name"]:
                    container["image"] = f"{image.get('newName', name)}:{image['newTag']}"
        for value in node.values():
            _retag(value, image)
    elif isinstance(node, list):
        for value in node:
            _retag(value, image)
