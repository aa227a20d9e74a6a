#!/usr/bin/python
# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: sgctl_led
short_description: Switch the locate or fault LED of a drive's enclosure slot (idempotent)
description:
  - Runs C(sgctl locate) or C(sgctl fault) on the drive. The slot is found through
    /sys/class/enclosure (the kernel's ses driver); every enclosure component linked to a path
    of the drive is set (one per SES device of a dual-expander enclosure).
  - A component already in the requested state is not written; the result is C(changed=false)
    when none was written. Each change is appended to sgctl's audit log.
  - In check mode runs C(--dry-run), which writes nothing, and reports whether a change would
    be made.
  - Fails (sgctl exit 7) when no enclosure the kernel knows holds the drive.
options:
  device:
    description: Device address (/dev/sgN, /dev/sdX, H:C:T:L or the LU name).
    type: str
    required: true
  led:
    description: Which LED.
    type: str
    choices: [locate, fault]
    default: locate
  state:
    description: The LED's wanted state.
    type: str
    choices: ["on", "off"]
    default: "on"
  sysroot:
    description: Read this directory instead of / (a sysfs tree, as C(sgctl scan --sysroot)).
    type: path
  sgctl_path:
    description: The sgctl binary.
    type: path
    default: sgctl
  audit_log:
    description: Audit log (else $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl).
    type: path
"""

EXAMPLES = r"""
- name: Light the slot of the drive to pull
  sgctl.sgctl.sgctl_led:
    device: /dev/sdq
    led: locate
    state: "on"
"""

RETURN = r"""
changes:
  description: One entry per enclosure component (sgctl's C(changes)) with enclosure, slot,
    state before and after, and whether it was written.
  returned: always
  type: list
  elements: dict
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.sgctl.sgctl.plugins.module_utils.sgctl import (
    COMMON_ARGS,
    SgctlError,
    fail,
    run,
)


def main():
    spec = dict(
        device=dict(type="str", required=True),
        led=dict(type="str", choices=["locate", "fault"], default="locate"),
        state=dict(type="str", choices=["on", "off"], default="on"),
        sysroot=dict(type="path"),
    )
    spec.update(COMMON_ARGS)
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True)
    p = module.params
    args = [p["led"], p["device"], "--" + p["state"]]
    if p["sysroot"]:
        args += ["--sysroot", p["sysroot"]]
    if module.check_mode:
        args.append("--dry-run")
    try:
        _, env = run(module, args)
    except SgctlError as e:
        msgs = ((e.envelope or {}).get("sgctl") or {}).get("messages") or []
        fail(module, e, messages=[m.get("string") for m in msgs])
    changes = (env.get("data") or {}).get("changes") or []
    want = p["state"] == "on"
    if module.check_mode:
        changed = any(c.get("before") != want for c in changes)
    else:
        changed = any(c.get("written") for c in changes)
    module.exit_json(changed=changed, changes=changes)


if __name__ == "__main__":
    main()
