#!/usr/bin/python
# -*- coding: utf-8 -*-
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: sgctl_tcg
short_description: TCG Enterprise self-encrypting drives - band lock state, crypto erase
description:
  - I(state=locked) / I(state=unlocked) locks or unlocks a band (as its BandMaster). The
    current state is read first (C(sgctl tcg status)); when it already matches, nothing is
    sent (C(changed=false)).
  - I(erase=true) cryptographically erases bands (as EraseMaster) through sgctl's safety gate
    (in use on any path or wrong I(confirm) is refused, exit 6). DESTROYS DATA. Check mode maps
    to C(--dry-run).
  - PINs come from a file on the managed host (I(pin_file), mode 0600) or the drive's MSID
    (I(msid), factory state); never from module arguments, which Ansible may log.
options:
  device:
    description: Device address.
    type: str
    required: true
  band:
    description: Band for I(state) (and, without I(bands)/I(all_bands), for I(erase)).
    type: int
    default: 0
  state:
    description: Wanted lock state of I(band).
    type: str
    choices: [locked, unlocked]
  erase:
    description: Cryptographic erase of I(bands) (or every band with I(all_bands)).
    type: bool
    default: false
  bands:
    description: Bands to erase.
    type: list
    elements: int
  all_bands:
    description: Erase every band (the whole drive).
    type: bool
    default: false
  pin_file:
    description: File on the managed host holding the BandMaster/EraseMaster PIN.
    type: path
  msid:
    description: Use the drive's MSID as the PIN (factory state).
    type: bool
    default: false
  confirm:
    description: Serial or WWN naming the drive (required for I(erase)).
    type: str
  certificate:
    description: Certificate path on the managed host (I(erase)).
    type: path
  signing_key:
    description: Ed25519 key file that signs the certificate.
    type: path
  sgctl_path:
    description: The sgctl binary on the managed host.
    type: path
    default: sgctl
  audit_log:
    description: Audit log on the managed host.
    type: path
author: sgctl developers
"""

EXAMPLES = r"""
- name: Band 1 locked
  sgctl.sgctl.sgctl_tcg:
    device: /dev/sg2
    band: 1
    state: locked
    pin_file: /root/.sgctl/bandmaster1.pin
- name: Crypto erase the whole drive
  sgctl.sgctl.sgctl_tcg:
    device: /dev/sg2
    erase: true
    all_bands: true
    pin_file: /root/.sgctl/erasemaster.pin
    confirm: "{{ serial }}"
"""

RETURN = r"""
band_state:
  description: read_locked / write_locked of I(band) after the task.
  type: dict
  returned: with state
record:
  description: sgctl's job record of the erase.
  type: dict
  returned: erase
"""

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.sgctl.sgctl.plugins.module_utils.sgctl import (
    COMMON_ARGS,
    SgctlError,
    fail,
    run,
)


def band_state(module, device, band):
    env = run(module, ["tcg", "status", device])[1]
    for b in (env.get("data") or {}).get("bands") or []:
        if b.get("number") == band:
            return dict(read_locked=b.get("read_locked"), write_locked=b.get("write_locked"))
    module.fail_json(msg="band %d not reported by sgctl tcg status %s" % (band, device))


def pin_args(module):
    p = module.params
    if p["pin_file"]:
        return ["--pin-file", p["pin_file"]]
    if p["msid"]:
        return ["--msid"]
    module.fail_json(msg="give pin_file or msid: true")


def main():
    spec = dict(
        device=dict(type="str", required=True),
        band=dict(type="int", default=0),
        state=dict(type="str", choices=["locked", "unlocked"]),
        erase=dict(type="bool", default=False),
        bands=dict(type="list", elements="int"),
        all_bands=dict(type="bool", default=False),
        pin_file=dict(type="path", no_log=False),
        msid=dict(type="bool", default=False),
        confirm=dict(type="str"),
        certificate=dict(type="path"),
        signing_key=dict(type="path", no_log=False),
    )
    spec.update(COMMON_ARGS)
    module = AnsibleModule(
        argument_spec=spec,
        supports_check_mode=True,
        required_one_of=[("state", "erase")],
        required_if=[("erase", True, ("confirm",))],
        mutually_exclusive=[("pin_file", "msid"), ("bands", "all_bands")],
    )
    p = module.params
    dev = p["device"]
    result = dict(changed=False)
    try:
        if p["state"]:
            cur = band_state(module, dev, p["band"])
            want = p["state"] == "locked"
            if cur["read_locked"] != want or cur["write_locked"] != want:
                result["changed"] = True
                if not module.check_mode:
                    verb = "lock" if want else "unlock"
                    run(module, ["tcg", verb, dev, "--band", str(p["band"])] + pin_args(module))
                    cur = band_state(module, dev, p["band"])
            result["band_state"] = cur
        if p["erase"]:
            args = ["tcg", "erase", dev, "--confirm", p["confirm"]] + pin_args(module)
            if p["all_bands"]:
                args.append("--all")
            else:
                for b in p["bands"] or [p["band"]]:
                    args += ["--band", str(b)]
            if module.check_mode:
                args.append("--dry-run")
            else:
                if p["certificate"]:
                    args += ["--certificate", p["certificate"]]
                if p["signing_key"]:
                    args += ["--signing-key", p["signing_key"]]
            env = run(module, args)[1]
            result["changed"] = True
            data = env.get("data") or {}
            result["record"] = (data.get("drives") or [data])[0]
    except SgctlError as e:
        fail(module, e)
    module.exit_json(**result)


if __name__ == "__main__":
    main()
