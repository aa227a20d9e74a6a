# -*- coding: utf-8 -*-
# Shared by the sgctl modules: run `sgctl --json ...` on the managed host and read its envelope.
# sgctl prints one JSON document per command: {"sgctl": {"exit_status": N, "messages": [...]},
# "device": ..., "data": {...}}; on an error the data is null and the message is in
# sgctl.messages / stderr. Exit statuses are sgctl(8)'s (6 = refused by the safety gate).

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

EXIT_NAMES = {
    0: "success",
    1: "other error",
    2: "usage error",
    3: "device could not be opened",
    4: "command failed",
    5: "check failed",
    6: "refused by the safety gate",
    7: "not supported by the device",
    8: "partial failure",
}

COMMON_ARGS = dict(
    sgctl_path=dict(type="path", default="sgctl"),
    audit_log=dict(type="path"),
)


class SgctlError(Exception):
    def __init__(self, msg, rc=None, envelope=None, stderr=""):
        super(SgctlError, self).__init__(msg)
        self.rc = rc
        self.envelope = envelope
        self.stderr = stderr


def run(module, args, env=None, allowed=(0,)):
    """Runs sgctl --json ARGS; returns (rc, envelope). Raises SgctlError when rc is not allowed."""
    cmd = [module.params["sgctl_path"], "--json"] + list(args)
    environ = {}
    if module.params.get("audit_log"):
        environ["SGCTL_AUDIT_LOG"] = module.params["audit_log"]
    if env:
        environ.update(env)
    rc, out, err = module.run_command(cmd, environ_update=environ)
    try:
        envelope = json.loads(out) if out.strip() else None
    except ValueError:
        envelope = None
    if rc not in allowed:
        last = err.strip().splitlines()[-1] if err.strip() else ""
        raise SgctlError(
            "sgctl %s: exit %d (%s)%s"
            % (args[0], rc, EXIT_NAMES.get(rc, "?"), ": " + last if last else ""),
            rc=rc,
            envelope=envelope,
            stderr=err,
        )
    if envelope is None:
        raise SgctlError("sgctl %s printed no JSON" % args[0], rc=rc, stderr=err)
    return rc, envelope


def fail(module, e, **extra):
    module.fail_json(
        msg=str(e),
        rc=e.rc,
        sgctl_exit_name=EXIT_NAMES.get(e.rc),
        sgctl=e.envelope,
        stderr=e.stderr,
        **extra
    )


def readcap(module, device):
    """READ CAPACITY(16) decoded: block_len, lba_count, protection_type, ..."""
    return run(module, ["readcap", device])[1]["data"]


def identity(module, device):
    """vendor/model/serial/wwn from `sgctl health` (one drive)."""
    rc, env = run(module, ["health", device], allowed=tuple(range(256)))
    drives = (env.get("data") or {}).get("drives") or []
    return drives[0] if drives else {}
