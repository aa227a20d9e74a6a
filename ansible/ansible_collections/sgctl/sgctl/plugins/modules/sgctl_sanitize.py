#!/usr/bin/python
# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: sgctl_sanitize
short_description: Sanitize SCSI drives (crypto erase, block erase, overwrite) with a certificate
description:
  - Runs C(sgctl sanitize) on one or more drives of the host, in parallel (at most
    I(max_parallel) behind one HBA), through sgctl's safety gate: a drive in use (mounted,
    swap, held, boot disk) on any of its paths, or whose serial/WWN is not in I(confirm), is
    refused and the task fails (exit 6). DESTROYS DATA.
  - Check mode maps to C(sgctl sanitize --dry-run): the read-only queries run, nothing that
    changes a drive is sent, and the CDBs that would be sent are returned.
  - The certificate (JSON + text, Ed25519-signed with I(signing_key)) is written on the managed
    host and, with I(fetch_to), copied to the controller as C(FETCH_TO/INVENTORY_HOSTNAME/NAME)
    (this module's action plugin does the copy).
  - Sanitizing is never idempotent: every run that is not check mode sends the command again.
options:
  devices:
    description: Device addresses.
    type: list
    elements: str
    required: true
  confirm:
    description: Serial numbers or WWNs naming the drives (one per drive).
    type: list
    elements: str
    required: true
  method:
    description: Sanitize method; C(auto) is the strongest purge the drive supports.
    type: str
    choices: [auto, crypto, block, overwrite]
    default: auto
  verify:
    description: Hash this many sampled blocks before and read them back after (0 = off).
    type: int
    default: 0
  max_parallel:
    description: At most this many drives at once behind one HBA (C(--max-per-hba)).
    type: int
    default: 4
  certificate:
    description: Certificate path on the managed host (default C(certificate-TIMESTAMP-PID.json) next to the audit log).
    type: path
  signing_key:
    description: Ed25519 private key file on the managed host (PKCS#8 PEM, mode 0600).
    type: path
  fetch_to:
    description: Directory on the controller that receives the certificate (action plugin).
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
- name: Crypto-erase two drives, certificate to the controller
  sgctl.sgctl.sgctl_sanitize:
    devices: [/dev/sg2, /dev/sg3]
    confirm: [S3Z1ABCD, S3Z1ABCE]
    method: crypto
    verify: 16
    signing_key: /etc/sgctl/signing.pem
    fetch_to: "{{ playbook_dir }}/certificates"
"""

RETURN = r"""
records:
  description: sgctl's per-drive job records (outcome, method, verification, sense trail).
  type: list
  returned: always
certificate:
  description: Certificate path on the managed host (also on a partial failure, exit 8).
  type: str
  returned: when written
certificate_local:
  description: Paths of the fetched certificate files on the controller.
  type: list
  returned: with fetch_to
"""

import os
import time

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.sgctl.sgctl.plugins.module_utils.sgctl import (
    COMMON_ARGS,
    SgctlError,
    fail,
    run,
)


def main():
    spec = dict(
        devices=dict(type="list", elements="str", required=True),
        confirm=dict(type="list", elements="str", required=True, no_log=False),
        method=dict(
            type="str", default="auto", choices=["auto", "crypto", "block", "overwrite"]
        ),
        verify=dict(type="int", default=0),
        max_parallel=dict(type="int", default=4),
        certificate=dict(type="path"),
        signing_key=dict(type="path", no_log=False),
        fetch_to=dict(type="path"),
    )
    spec.update(COMMON_ARGS)
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True)
    p = module.params
    if not p["devices"]:
        module.exit_json(changed=False, records=[], msg="no devices")
    args = ["sanitize"] + p["devices"]
    args += ["--method", "auto"] if p["method"] == "auto" else ["--" + p["method"]]
    for c in p["confirm"]:
        args += ["--confirm", c]
    if p["verify"]:
        args += ["--verify", str(p["verify"])]
    args += ["--max-per-hba", str(p["max_parallel"])]
    cert = None
    try:
        if module.check_mode:
            rc, env = run(module, args + ["--dry-run"])
            module.exit_json(
                changed=True,
                records=(env.get("data") or {}).get("drives", []),
                msg="check mode: sgctl sanitize --dry-run, nothing sent",
            )
        cert = p["certificate"]
        if not cert:
            d = os.path.dirname(p["audit_log"] or "/var/log/sgctl/audit.jsonl")
            stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
            cert = os.path.join(d, "certificate-%s-%d.json" % (stamp, os.getpid()))
        args += ["--certificate", cert]
        if p["signing_key"]:
            args += ["--signing-key", p["signing_key"]]
        rc, env = run(module, args)
    except SgctlError as e:
        recs = ((e.envelope or {}).get("data") or {}).get("drives", [])
        # A partial run (exit 8) still wrote a certificate for every drive: hand it back so the
        # action plugin fetches the evidence of what was done.
        written = cert if not module.check_mode and os.path.exists(cert) else None
        fail(module, e, records=recs, certificate=written)
    module.exit_json(
        changed=True,
        records=(env.get("data") or {}).get("drives", []),
        certificate=cert,
    )


if __name__ == "__main__":
    main()
