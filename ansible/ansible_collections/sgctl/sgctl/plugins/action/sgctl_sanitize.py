# -*- coding: utf-8 -*-
# Action plugin for sgctl_sanitize: runs the module on the managed host, then copies the
# certificate it wrote (FILE, FILE.txt, FILE.html) back to the controller when `fetch_to` is set, as
# FETCH_TO/INVENTORY_HOSTNAME/BASENAME. Uses the connection's own fetch_file, like
# ansible.builtin.fetch does, so it works over ssh as well as locally.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

from ansible.errors import AnsibleError
from ansible.plugins.action import ActionBase


class ActionModule(ActionBase):
    TRANSFERS_FILES = True

    def run(self, tmp=None, task_vars=None):
        result = super(ActionModule, self).run(tmp, task_vars)
        del tmp
        args = dict(self._task.args)
        fetch_to = args.get("fetch_to")
        mod = self._execute_module(
            module_name="sgctl.sgctl.sgctl_sanitize",
            module_args=args,
            task_vars=task_vars,
        )
        result.update(mod)
        cert = mod.get("certificate")
        # Fetched also when the module failed after writing one (some drives refused or failed:
        # the certificate records every drive's outcome).
        if not fetch_to or not cert or self._task.check_mode:
            return result
        host = (task_vars or {}).get("inventory_hostname", "host")
        dest_dir = os.path.join(os.path.expanduser(fetch_to), host)
        try:
            os.makedirs(dest_dir, exist_ok=True)
            local = []
            for remote in (cert, cert + ".txt", cert + ".html"):
                dest = os.path.join(dest_dir, os.path.basename(remote))
                self._connection.fetch_file(remote, dest)
                local.append(dest)
        except (AnsibleError, OSError) as e:
            result["failed"] = True
            result["msg"] = "%s; fetching the certificate %s failed: %s" % (
                result.get("msg", "sanitize done"), cert, e)
            return result
        result["certificate_local"] = local
        return result
