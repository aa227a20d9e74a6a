#!/usr/bin/python
# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: sgctl_facts
short_description: SCSI drives of a host with identity, capacity and health, as facts
description:
  - Runs C(sgctl health --json) on the listed devices (or C(--all), every disk C(sgctl scan)
    finds) and C(sgctl readcap --json) on each, and returns them as the fact C(sgctl_drives).
  - Read-only; never changes anything, so it also runs in check mode.
options:
  devices:
    description: Device addresses (C(/dev/sgN), C(/dev/sdX), C(sim:...)). Default every disk.
    type: list
    elements: str
  health:
    description: Include the health report (endurance, temperature, defects, self-tests).
    type: bool
    default: true
  sgctl_path:
    description: The sgctl binary on the managed host.
    type: path
    default: sgctl
  audit_log:
    description: Unused here (read-only); accepted for symmetry with the other modules.
    type: path
author: sgctl developers
"""

EXAMPLES = r"""
- name: Drives and their health
  sgctl.sgctl.sgctl_facts:
- name: Only PX02 drives
  ansible.builtin.debug:
    msg: "{{ sgctl_drives | selectattr('model', 'equalto', 'PX02SMF080') | map(attribute='serial') }}"
"""

RETURN = r"""
ansible_facts:
  description: C(sgctl_drives), a list with one entry per drive.
  returned: always
  type: dict
  contains:
    sgctl_drives:
      description: >-
        device, vendor, model, serial, wwn, firmware, state (ok, warning, failing, unreadable),
        enclosure (logical identifier) and slot where the kernel's ses driver places the drive
        (else null),
        block_size, protection_type, lba_count, capacity_bytes, and health (sgctl health's drive
        record) when I(health=true).
      type: list
      elements: dict
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.sgctl.sgctl.plugins.module_utils.sgctl import (
    COMMON_ARGS,
    SgctlError,
    fail,
    readcap,
    run,
)


def main():
    spec = dict(
        devices=dict(type="list", elements="str"),
        health=dict(type="bool", default=True),
    )
    spec.update(COMMON_ARGS)
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True)
    devices = module.params["devices"] or []
    try:
        # The health bit mask is data here, not failure: any exit status is accepted.
        rc, env = run(
            module, ["health"] + (devices or ["--all"]), allowed=tuple(range(256))
        )
        drives = []
        for h in (env.get("data") or {}).get("drives") or []:
            d = dict(
                device=h.get("device"),
                vendor=h.get("vendor"),
                model=h.get("model"),
                serial=h.get("serial"),
                wwn=h.get("wwn"),
                firmware=h.get("revision"),
                state=h.get("state"),
                health_exit_bits=h.get("exit_bits"),
                enclosure=h.get("enclosure"),
                slot=h.get("slot"),
            )
            if h.get("state") != "unreadable":
                cap = readcap(module, h["device"])
                d.update(
                    block_size=cap.get("block_len"),
                    protection_type=cap.get("protection_type"),
                    lba_count=cap.get("lba_count"),
                    capacity_bytes=cap.get("size_bytes"),
                )
            if module.params["health"]:
                d["health"] = h
            drives.append(d)
    except SgctlError as e:
        fail(module, e)
    module.exit_json(
        changed=False, ansible_facts=dict(sgctl_drives=drives), health_exit_bits=rc
    )


if __name__ == "__main__":
    main()
