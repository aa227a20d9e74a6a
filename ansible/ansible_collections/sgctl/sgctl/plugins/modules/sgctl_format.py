#!/usr/bin/python
# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: sgctl_format
short_description: Format a SCSI drive to a block size, protection type and capacity (idempotent)
description:
  - Reads the drive's current format (C(sgctl readcap)). When block size, protection type and
    (if given) capacity already match, nothing is sent and the result is C(changed=false).
  - Otherwise runs C(sgctl format) through sgctl's safety gate (in-use refusal on every path,
    confirmation by serial or WWN, audit record) and verifies the result. DESTROYS DATA.
  - In check mode runs C(sgctl format --dry-run), which sends nothing that changes the drive,
    and returns the CDBs it would send.
options:
  device:
    description: Device address.
    type: str
    required: true
  block_size:
    description: Logical block size in bytes (512, 520, 4096, ...).
    type: int
    required: true
  pi:
    description: Protection information type (0 = none).
    type: int
    choices: [0, 1, 2, 3]
    default: 0
  capacity:
    description: Number of logical blocks (omit to keep the drive's choice).
    type: int
  fast:
    description: Fast format (FFMT=1).
    type: bool
    default: false
  confirm:
    description: The drive's serial number or WWN (the safety gate's confirmation).
    type: str
    required: true
  certificate:
    description: Write a certificate (JSON, and C(.txt)) to this path on the managed host.
    type: path
  signing_key:
    description: Ed25519 key file on the managed host that signs the certificate.
    type: path
  sgctl_path:
    description: The sgctl binary on the managed host.
    type: path
    default: sgctl
  audit_log:
    description: Audit log on the managed host (default C($SGCTL_AUDIT_LOG), else /var/log/sgctl/audit.jsonl).
    type: path
author: sgctl developers
"""

EXAMPLES = r"""
- name: 4096-byte blocks, no PI
  sgctl.sgctl.sgctl_format:
    device: /dev/sg3
    block_size: 4096
    confirm: "{{ serial }}"
"""

RETURN = r"""
before:
  description: block_size, protection_type, lba_count before.
  type: dict
  returned: always
after:
  description: The same after the format (equal to before when nothing changed).
  type: dict
  returned: always
planned_commands:
  description: In check mode, the CDBs sgctl would send.
  type: list
  returned: check mode with a change
record:
  description: sgctl's per-drive job record.
  type: dict
  returned: changed and not check mode
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.sgctl.sgctl.plugins.module_utils.sgctl import (
    COMMON_ARGS,
    SgctlError,
    fail,
    readcap,
    run,
)


def shape(cap):
    return dict(
        block_size=cap.get("block_len"),
        protection_type=cap.get("protection_type"),
        lba_count=cap.get("lba_count"),
    )


def main():
    spec = dict(
        device=dict(type="str", required=True),
        block_size=dict(type="int", required=True),
        pi=dict(type="int", default=0, choices=[0, 1, 2, 3]),
        capacity=dict(type="int"),
        fast=dict(type="bool", default=False),
        confirm=dict(type="str", required=True),
        certificate=dict(type="path"),
        signing_key=dict(type="path", no_log=False),
    )
    spec.update(COMMON_ARGS)
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True)
    p = module.params
    try:
        before = shape(readcap(module, p["device"]))
        want = dict(block_size=p["block_size"], protection_type=p["pi"])
        if p["capacity"] is not None:
            want["lba_count"] = p["capacity"]
        if all(before.get(k) == v for k, v in want.items()):
            module.exit_json(changed=False, before=before, after=before)
        args = [
            "format",
            p["device"],
            "--block-size",
            str(p["block_size"]),
            "--pi",
            str(p["pi"]),
            "--confirm",
            p["confirm"],
        ]
        if p["capacity"] is not None:
            args += ["--capacity", str(p["capacity"])]
        if p["fast"]:
            args.append("--fast")
        if module.check_mode:
            rc, env = run(module, args + ["--dry-run"])
            rec = ((env.get("data") or {}).get("drives") or [{}])[0]
            module.exit_json(
                changed=True,
                before=before,
                after=before,
                planned_commands=rec.get("commands", []),
            )
        if p["certificate"]:
            args += ["--certificate", p["certificate"]]
        if p["signing_key"]:
            args += ["--signing-key", p["signing_key"]]
        rc, env = run(module, args)
        rec = ((env.get("data") or {}).get("drives") or [{}])[0]
        after = shape(readcap(module, p["device"]))
    except SgctlError as e:
        fail(module, e)
    module.exit_json(changed=True, before=before, after=after, record=rec)


if __name__ == "__main__":
    main()
