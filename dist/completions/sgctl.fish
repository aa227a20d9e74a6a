# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_sgctl_global_optspecs
    string join \n json= v/verbose hex h/help V/version
end

function __fish_sgctl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_sgctl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_sgctl_using_subcommand
    set -l cmd (__fish_sgctl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c sgctl -n "__fish_sgctl_needs_command" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_needs_command" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_needs_command" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_needs_command" -s V -l version -d 'Print version'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "inquiry" -d 'Standard INQUIRY data (vendor, product, revision, PROTECT, MultiP) and serial number'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "vpd" -d 'A VPD page (default: the list of supported pages)'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "readcap" -d 'READ CAPACITY (16), or (10): size, block lengths, protection, provisioning'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "opcodes" -d 'REPORT SUPPORTED OPERATION CODES: the commands the device implements'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "tur" -d 'TEST UNIT READY (exit 0 when ready, 4 with the sense data when not)'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "sense" -d 'REQUEST SENSE: current sense data (progress of a format or sanitize)'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "luns" -d 'REPORT LUNS with each LUN decoded'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "modes" -d 'MODE SENSE: header, block descriptors and decoded mode pages'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "decode" -d 'Decode a saved response (sg3_utils --inhex format) without the device'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "sim" -d 'Virtual drives: list profiles, show state, inject faults, benchmark the media model'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "scan" -d 'List SCSI drives grouped by logical unit with all their paths'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "paths" -d 'Show every path of the drive a device belongs to'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "locate" -d 'Switch the locate (identify) LED of a drive\'s enclosure slot on or off'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "fault" -d 'Switch the fault LED of a drive\'s enclosure slot on or off'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "logs" -d 'Read and decode log pages (LOG SENSE), like sg_logs'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "health" -d 'Health report per drive: endurance and projection, temperature, defects, errors, self-tests, failure prediction, SAS phys; rules and an exit bit mask'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "selftest" -d 'Self-tests: start short/extended (background or foreground), abort, show progress and the Self-Test Results log'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "defects" -d 'READ DEFECT DATA: the grown (or primary) defect list, count and entries'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "power" -d 'START STOP UNIT with power conditions (active, idle, standby, stop, start) and the power condition REQUEST SENSE reports'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "reassign" -d 'REASSIGN BLOCKS: move blocks to spares (grown defect list), behind the safety gate'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "firmware" -d 'Download microcode (WRITE BUFFER modes 5, 7, 0xd, 0xe; activation 0Fh) behind the safety gate, the new revision verified'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "format" -d 'Format drives: block size, protection type, capacity (verified; destroys data)'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "sanitize" -d 'Sanitize drives: crypto/block erase or overwrite (verified, recorded; destroys data)'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "wait" -d 'Watch a running format or sanitize until it ends'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "bench" -d 'Benchmark a drive: `bench run` issues one workload (like a fio job) through io_uring, sg or the virtual drive and reports IOPS, latency percentiles, CPU per I/O'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "tcg" -d 'TCG Storage: Level 0 discovery, Enterprise bands (lock, unlock, crypto erase), ownership, PSID revert'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "reservations" -d 'SCSI-3 persistent reservations: keys, holder, type, per target port (read-only)'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "audit" -d 'Audit log: verify the hash chain (changed, removed or reordered records)'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "certificate" -d 'Certificates: verify the Ed25519 signature; create a signing key'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "ata" -d 'ATA side of a SATA drive behind a SATL: IDENTIFY, SMART, logs (ATA PASS-THROUGH)'
complete -c sgctl -n "__fish_sgctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand inquiry" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand inquiry" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand inquiry" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand inquiry" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand vpd" -s p -l page -d 'Page: number (0x83, 131, 83h), sg_vpd acronym (di), or `all`' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand vpd" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand vpd" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand vpd" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand vpd" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand readcap" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand readcap" -l 16 -d 'Only READ CAPACITY (16)'
complete -c sgctl -n "__fish_sgctl_using_subcommand readcap" -l 10 -d 'Only READ CAPACITY (10)'
complete -c sgctl -n "__fish_sgctl_using_subcommand readcap" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand readcap" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand readcap" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand opcodes" -l opcode -d 'Describe only this operation code (hex with 0x, or decimal)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand opcodes" -l sa -d 'With --opcode: this service action' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand opcodes" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand opcodes" -s T -l timeouts -d 'Ask for command timeouts descriptors (RCTD)'
complete -c sgctl -n "__fish_sgctl_using_subcommand opcodes" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand opcodes" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand opcodes" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand tur" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tur" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tur" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand tur" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand sense" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand sense" -l desc -d 'Ask for descriptor format sense data (DESC=1)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sense" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sense" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand sense" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand luns" -l select -d 'SELECT REPORT: 0 all LUs, 1 well-known LUs only, 2 all including well-known' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand luns" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand luns" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand luns" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand luns" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -l pc -d 'Page control' -r -f -a "current\t'Current values'
changeable\t'Changeable values (mask)'
default\t'Default values'
saved\t'Saved values'"
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -l audit-log -d 'With --set: audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -s p -l page -d 'Page: sdparm abbreviation or name (ca, cache, caching, ie, co, control, po, power, rw, rw-err, ...; see --help), a number (0x08, 8, 08h), or `all` [default: all]' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -l subpage -d 'Subpage code (default 0; 0xff with all pages)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -l get -d 'Show a field: current value, whether it is changeable, default and saved values (repeatable)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -l set -d 'Change a field (repeatable): only changeable fields, the rest of the page as it is' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -l six -d 'Use MODE SENSE(6) instead of (10)'
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -l llbaa -d 'Accept long LBA block descriptors (MODE SENSE(10) LLBAA)'
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -l dbd -d 'Disable block descriptors (DBD)'
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -l save -d 'With --set: save the new values (SP=1) so they survive a power cycle'
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -l dry-run -d 'With --set: print the MODE SELECT CDB and parameter list, send nothing'
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand decode" -l as -d 'How to decode the bytes' -r -f -a "inquiry\t'Standard INQUIRY data'
vpd\t'A VPD page (page code from byte 1)'
readcap10\t'READ CAPACITY (10) data'
readcap16\t'READ CAPACITY (16) data'
sense\t'Sense data (fixed or descriptor; REQUEST SENSE data)'
opcodes\t'REPORT SUPPORTED OPERATION CODES, all commands'
opcode\t'REPORT SUPPORTED OPERATION CODES, one command'
mode\t'MODE SENSE(10) data (add --six for MODE SENSE(6))'
luns\t'REPORT LUNS data'
logpage\t'A LOG SENSE page (page code from byte 0; decoded as `sgctl logs` does)'
ses-config\t'SES Configuration page (01h). The file may hold several pages back to back, as `sg_ses --page=all -HHH` captures them and `sg_ses --inhex` reads them'
ses-status\t'SES Enclosure Status page (02h); needs the Configuration page (01h) in the same file'
ses-element-desc\t'SES Element Descriptor page (07h); needs the Configuration page in the same file'
ses-addl-status\t'SES Additional Element Status page (0Ah); needs the Configuration page in the same file'"
complete -c sgctl -n "__fish_sgctl_using_subcommand decode" -s i -l inhex -d 'File with the response in ASCII hex (`-` = stdin)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand decode" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand decode" -l six -d 'With `--as mode`: the data came from MODE SENSE(6) (4-byte header)'
complete -c sgctl -n "__fish_sgctl_using_subcommand decode" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand decode" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand decode" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and not __fish_seen_subcommand_from list info fault bench serve help" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and not __fish_seen_subcommand_from list info fault bench serve help" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and not __fish_seen_subcommand_from list info fault bench serve help" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and not __fish_seen_subcommand_from list info fault bench serve help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and not __fish_seen_subcommand_from list info fault bench serve help" -f -a "list" -d 'List the drive profiles usable as `sim:PROFILE`'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and not __fish_seen_subcommand_from list info fault bench serve help" -f -a "info" -d 'Show a virtual drive\'s state (format, protection, clock, wear)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and not __fish_seen_subcommand_from list info fault bench serve help" -f -a "fault" -d 'Inject faults into a virtual drive (persisted when the address has `state=FILE`)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and not __fish_seen_subcommand_from list info fault bench serve help" -f -a "bench" -d 'Benchmark the media model of virtual drives (FOB vs steady state vs extra OP)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and not __fish_seen_subcommand_from list info fault bench serve help" -f -a "serve" -d 'Serve a virtual drive to this kernel as a real SCSI disk (TCMU + tcm_loop; root)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and not __fish_seen_subcommand_from list info fault bench serve help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from list" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from list" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from info" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from info" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from info" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from info" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l timeout -d 'The next N commands time out' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l busy -d 'The next N commands get BUSY status' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l disconnect -d 'The next N commands fail with DID_NO_CONNECT (path lost)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l medium-error -d 'Reads of LBA fail with MEDIUM ERROR 11/00 until it is rewritten (repeatable)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l heat -d 'Run this many degrees C hotter (negative: cooler) from now on' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l wear -d 'Wear the flash to PERCENT of its rated P/E cycles (endurance used)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l advance -d 'Move the drive\'s clock forward by DURATION (90, 90s, 2h) (finishes long operations early)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l power-cycle -d 'Power cycle the drive now (UA 29/00; a format in progress is lost, a sanitize resumes)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l lu-reset -d 'Reset the logical unit now (UA 29/03)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l fail-format -d 'The next FORMAT UNIT fails (31/01, then 31/00)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l fail-sanitize -d 'The next SANITIZE fails (31/03)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l noop-sanitize -d 'The next SANITIZE (or ATA erase) reports success and erases nothing: a drive whose erase claim is false (validation must catch it)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l clear -d 'Remove pending faults first'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from bench" -l op-extra -d 'Extra over-provisioning for the third measurement, in percent of user capacity' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from bench" -l capacity-gib -d 'Simulated user capacity per drive in GiB (a scaled-down drive; the model\'s behaviour does not depend on it)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from bench" -l qd -d 'Queue depth (outstanding commands)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from bench" -l seed -d 'Random seed; results are deterministic for a seed' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from bench" -l max-rounds -d 'Most steady-state rounds (¼ capacity each)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from bench" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from bench" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from bench" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from bench" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from serve" -l ready-file -d 'Write `ready` to this file once the LUNs exist and their device nodes appeared' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from serve" -l tcmu -d 'The virtual drive to serve: `PROFILE[?key=val&...]` as in `sim:` addresses (for example `px02smf080?capacity_gib=1&state=/tmp/d.json`), or `enclosure?slots=N&...` for the virtual enclosure services device (peripheral type 0Dh, for the kernel\'s ses driver; `serials=` puts the drives served next to it in its first slots)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from serve" -l ports -d 'Number of target ports (default: the profile\'s; 2 for a dual-port drive). Each port is its own backstore + tcm_loop target, so the kernel sees one LU on that many paths' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from serve" -l name -d 'Name prefix for the LIO objects (default `sgctl<pid>`)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from serve" -l wait -d 'How long to wait for the kernel to create the device nodes before reporting ready (a duration: 30, 30s, 2m; whole seconds, rounded up; at most a day)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from serve" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from serve" -l overlap -d 'On a real-clock drive, keep the queue\'s commands in flight and answer each when its modeled service time has passed (out of order as the media model says) instead of one at a time. Off by default: it needs real sleeps of tens of microseconds, which an emulated guest cannot honour. A `clock=virtual` drive always overlaps, on its own clock and without sleeping'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from serve" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from serve" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the drive profiles usable as `sim:PROFILE`'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from help" -f -a "info" -d 'Show a virtual drive\'s state (format, protection, clock, wear)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from help" -f -a "fault" -d 'Inject faults into a virtual drive (persisted when the address has `state=FILE`)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from help" -f -a "bench" -d 'Benchmark the media model of virtual drives (FOB vs steady state vs extra OP)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from help" -f -a "serve" -d 'Serve a virtual drive to this kernel as a real SCSI disk (TCMU + tcm_loop; root)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand scan" -l sysroot -d 'Read this directory instead of / (a captured tree with sys/, proc/ and optionally replay/sgN/*.bin; nothing is sent to devices then)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand scan" -l timeout -d 'Per-device timeout (a duration: 10s, 2000ms, 1m; default 10s); a device that does not answer in time is reported with an error and the others go on' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand scan" -l timeout-ms -d 'The same in milliseconds (older spelling of --timeout)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand scan" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand scan" -l no-io -d 'Do not send commands even on the live system: use the kernel\'s cached INQUIRY/VPD copies'
complete -c sgctl -n "__fish_sgctl_using_subcommand scan" -l live -d 'Ask every device itself (INQUIRY, VPD, READ CAPACITY over SG_IO) instead of reading the kernel\'s copies first: slower, but a device that no longer answers shows up with an error in its row (exit 8). By default the scan sends commands only for what sysfs lacks'
complete -c sgctl -n "__fish_sgctl_using_subcommand scan" -l names -d 'Print only the device addresses, one a line (every path of every drive), from the kernel\'s copies without sending a command: what the shell completions offer for DEVICE'
complete -c sgctl -n "__fish_sgctl_using_subcommand scan" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand scan" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand scan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand paths" -l sysroot -d 'Read this directory instead of / (see `sgctl scan --sysroot`)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand paths" -l timeout -d 'Per-device timeout (a duration: 10s, 2000ms, 1m; default 10s); a device that does not answer in time is reported with an error and the others go on' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand paths" -l timeout-ms -d 'The same in milliseconds (older spelling of --timeout)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand paths" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand paths" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand paths" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand paths" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -l audit-log -d 'Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -l sysroot -d 'Read this directory instead of / (a sysfs tree; see `sgctl scan --sysroot`)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -l enclosure-device -d 'Drive the LED with SES pages through this enclosure services device (repeatable; a `sim:enclosure` address, or /dev/sgN where the ses driver is not loaded) instead of /sys/class/enclosure' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -l timeout -d 'Per-device timeout (a duration: 10s, 2000ms, 1m; default 10s); a device that does not answer in time is reported with an error and the others go on' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -l timeout-ms -d 'The same in milliseconds (older spelling of --timeout)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -l on -d 'Switch the LED on'
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -l off -d 'Switch the LED off'
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -l dry-run -d 'Show what would be written; write nothing'
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -l audit-log -d 'Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -l sysroot -d 'Read this directory instead of / (a sysfs tree; see `sgctl scan --sysroot`)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -l enclosure-device -d 'Drive the LED with SES pages through this enclosure services device (repeatable; a `sim:enclosure` address, or /dev/sgN where the ses driver is not loaded) instead of /sys/class/enclosure' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -l timeout -d 'Per-device timeout (a duration: 10s, 2000ms, 1m; default 10s); a device that does not answer in time is reported with an error and the others go on' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -l timeout-ms -d 'The same in milliseconds (older spelling of --timeout)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -l on -d 'Switch the LED on'
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -l off -d 'Switch the LED off'
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -l dry-run -d 'Show what would be written; write nothing'
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -l audit-log -d 'With --reset: audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -l inhex -d 'Decode LOG SENSE responses from a file (sg3_utils --inhex format: hex bytes, \'#\' comments; several pages back to back) instead of a device' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -s p -l page -d 'Page to read: P or P,SUB; numbers are decimal or 0x-prefixed hex (e.g. 0x0d,0x01)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -l pc -d 'Page control: current (= cumulative), threshold, default (= default cumulative), default-threshold' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -l param-pointer -d 'Parameter pointer: first parameter code to return' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -l confirm -d 'With --reset: serial number or WWN naming the drive' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -l reset -d 'Reset the log counters with LOG SELECT (PCR=1). Destructive; see below'
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -l dry-run -d 'With --reset: print the LOG SELECT CDB, send nothing'
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -l rules -d 'Rules file (TOML subset, see below)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -l sysroot -d 'Root for sysfs lookups of --all, --enclosure and the slot labels (tests use a fake tree)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -l enclosure -d 'Also every disk the kernel places in enclosure ID (logical identifier, as `sgctl scan` shows it), optionally only slots SLOTS (`0-11`, `3`, `0-3,8`)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -l max -d 'Upper limit METRIC=N (repeatable)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -l min -d 'Lower limit METRIC=N (repeatable)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -l timeout -d 'How long to wait for all drives together (a duration: 60, 60s, 2m); a drive still busy after that is reported as timed out (bit 2) and does not hold up the others' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -l all -d 'Every SCSI disk (/dev/sgN with peripheral type 0 in sysfs)'
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -l prometheus -d 'Print node_exporter textfile-collector format instead of text'
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand selftest" -l audit-log -d 'Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand selftest" -l confirm -d 'With --foreground: serial number or WWN naming the drive' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand selftest" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand selftest" -l short -d 'Start a short self-test (background unless --foreground)'
complete -c sgctl -n "__fish_sgctl_using_subcommand selftest" -l extended -d 'Start an extended self-test (the whole medium; background unless --foreground)'
complete -c sgctl -n "__fish_sgctl_using_subcommand selftest" -l abort -d 'Abort the background self-test in progress'
complete -c sgctl -n "__fish_sgctl_using_subcommand selftest" -l foreground -d 'Run the test in the foreground: the command ends when the test does and the drive serves nothing else meanwhile (needs --confirm)'
complete -c sgctl -n "__fish_sgctl_using_subcommand selftest" -l dry-run -d 'Print the SEND DIAGNOSTIC CDB, send nothing'
complete -c sgctl -n "__fish_sgctl_using_subcommand selftest" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand selftest" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand selftest" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand defects" -l format -d 'Address descriptor format to ask for' -r -f -a "short\t'Short block (4-byte LBA)'
long\t'Long block (8-byte LBA)'
index\t'Bytes from index (cylinder, head, bytes from index)'
physical\t'Physical sector (cylinder, head, sector)'"
complete -c sgctl -n "__fish_sgctl_using_subcommand defects" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand defects" -l grown -d 'The grown list (default)'
complete -c sgctl -n "__fish_sgctl_using_subcommand defects" -l primary -d 'The primary (factory) list'
complete -c sgctl -n "__fish_sgctl_using_subcommand defects" -l both -d 'Both lists'
complete -c sgctl -n "__fish_sgctl_using_subcommand defects" -l count -d 'Only the number of entries (header only)'
complete -c sgctl -n "__fish_sgctl_using_subcommand defects" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand defects" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand defects" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -l audit-log -d 'Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -l idle -d 'Idle power condition: a (default), b or c' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -l standby -d 'Standby power condition: z (default) or y' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -l confirm -d 'With --stop: serial number or WWN naming the drive' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -l active -d 'Active power condition'
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -l timers -d 'Hand power management back to the mode page\'s timers (LU_CONTROL)'
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -l start -d 'Start the unit (START=1)'
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -l stop -d 'Stop the unit (START=0): medium access fails until --start (needs --confirm)'
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -l immed -d 'Return at once (IMMED=1) instead of when the condition is reached'
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -l dry-run -d 'Print the START STOP UNIT CDB, send nothing'
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand reassign" -l audit-log -d 'Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand reassign" -l confirm -d 'Serial number or WWN naming the drive' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand reassign" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand reassign" -l dry-run -d 'Print the REASSIGN BLOCKS CDB and parameter list, send nothing'
complete -c sgctl -n "__fish_sgctl_using_subcommand reassign" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand reassign" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand reassign" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l image -d 'The microcode image' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l events -d 'Mode 0xd: the events that activate the saved microcode' -r -f -a "power-on\t'PO_ACT: the next power on'
hard-reset\t'HR_ACT: the next hard reset'
vendor\t'VSE_ACT: a vendor specific event'"
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l audit-log -d 'Audit log, JSON Lines, one record before and one after each job [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l certificate -d 'Write a certificate: FILE (JSON, one record per drive), FILE.txt (text), FILE.html and FILE.pdf (a printable certificate of sanitization; PDF/A with the JSON attached); several drives also get FILE.manifest.json and its PDF (docs/records.md)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l signing-key -d 'Sign the certificate with this Ed25519 key (PKCS#8 PEM, mode 0600; `sgctl certificate keygen`) [default: $SGCTL_SIGNING_KEY, else unsigned]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l site -d 'Site file (TOML) with the fields that do not change per drive: destination, sanitized_by/validated_by, classification, backup, [asset_tags]; flags override it' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l destination -d 'Where the drive goes after sanitization' -r -f -a "reuse\t'Back into service inside the organisation'
resale\t'Sold or returned (leaves the organisation\'s control)'
recycle\t'To a recycler'
destroy\t'To destruction'"
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l mode -d 'Download mode: auto, 5, 7, 0xd, 0xe' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l chunk -d 'Segment size for modes 7, 0xd, 0xe (512, 64k, 1MiB); a multiple of the drive\'s offset boundary [default: 64 KiB, or the buffer\'s capacity when smaller]' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l expect-revision -d 'The revision the drive must report afterwards (INQUIRY PRODUCT REVISION LEVEL); otherwise the record shows what it reports' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l buffer-id -d 'BUFFER ID of the microcode buffer' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l confirm -d 'Serial number or WWN naming the drive (repeat once per drive). Without it sgctl asks you to type it when stdin is a terminal; there is no default' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l operator -d 'Who performs the job, recorded in the certificate [default: $SGCTL_OPERATOR]' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l max-per-hba -d 'At most N jobs at once on drives behind the same HBA' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l poll-interval -d 'Time between progress polls, a duration: 5, 5s, 500ms (virtual drives: the drive\'s clock is advanced instead)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l enclosure-device -d 'With --leds: the enclosure services devices to ask over SG_IO for drives no kernel enclosure holds (repeatable; /dev/sgN, or a `sim:enclosure` address for virtual drives) instead of those a scan finds' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l asset-tag -d 'Property number: TAG for the only drive of the job, or SERIAL=TAG (repeat per drive; SERIAL may be a WWN)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l operator-title -d 'Title or position of the operator (who sanitizes)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l operator-organisation -d 'Organisation of the operator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l operator-location -d 'Location of the operator (site, room)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l operator-contact -d 'Phone or e-mail of the operator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l validator -d 'Who validates the result (the second person; they sign with `sgctl certificate countersign`)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l validator-title -d 'Title or position of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l validator-organisation -d 'Organisation of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l validator-location -d 'Location of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l validator-contact -d 'Phone or e-mail of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l classification-before -d 'Confidentiality categorization before sanitization (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l classification-after -d 'Confidentiality categorization after sanitization (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l data-backup -d 'Whether and where the data was backed up (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l enclosure-slot -d 'Enclosure slot of the only drive of the job (e.g. "enclosure 0 slot 3")' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l activate -d 'After a deferred download (0xd, 0xe), activate it (WRITE BUFFER mode 0Fh); without --image, activate what an earlier deferred download saved'
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l dry-run -d 'Print the exact CDBs (hex) that would be sent; send nothing that changes the drive'
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l force -d 'Replace a certificate (FILE, FILE.txt, FILE.html, FILE.pdf, the manifest) that already exists. Without it an existing file refuses the job before anything is sent to a drive. With `format`, also send a block length or PI type the drive does not list in VPD 0xB4 (the verification afterwards still catches a drive that formats to another size)'
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l progress-json -d 'Progress as JSON Lines events on stderr (instead of progress bars)'
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l ignore-reservation -d 'Go ahead although another initiator holds a persistent reservation on the drive (`sgctl reservations DEVICE` shows it; the drive itself may still refuse with RESERVATION CONFLICT)'
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l leds -d 'After the jobs, light the locate LED of every drive that passed and the fault LED of every drive that did not (the enclosure slots the kernel knows, else the slot an enclosure services device lists the drive\'s SAS address in, as `sgctl locate` and `sgctl fault` do; each LED change is audited). Not on --dry-run'
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l audit-log -d 'Audit log, JSON Lines, one record before and one after each job [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l certificate -d 'Write a certificate: FILE (JSON, one record per drive), FILE.txt (text), FILE.html and FILE.pdf (a printable certificate of sanitization; PDF/A with the JSON attached); several drives also get FILE.manifest.json and its PDF (docs/records.md)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l signing-key -d 'Sign the certificate with this Ed25519 key (PKCS#8 PEM, mode 0600; `sgctl certificate keygen`) [default: $SGCTL_SIGNING_KEY, else unsigned]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l site -d 'Site file (TOML) with the fields that do not change per drive: destination, sanitized_by/validated_by, classification, backup, [asset_tags]; flags override it' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l destination -d 'Where the drive goes after sanitization' -r -f -a "reuse\t'Back into service inside the organisation'
resale\t'Sold or returned (leaves the organisation\'s control)'
recycle\t'To a recycler'
destroy\t'To destruction'"
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l all-matching -d 'Also every disk found by `sgctl scan` whose vendor/model/serial/firmware/LU name contains all words of FILTER (each still needs its --confirm)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l enclosure -d 'Also every disk the kernel places in enclosure ID (logical identifier, as `sgctl scan` shows it), optionally only slots SLOTS (`0-11`, `3`, `0-3,8`); with --all-matching, the disks matching both (each still needs its --confirm)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l block-size -d 'New logical block size in bytes (512, 520, 4096, ...). Optional only with --recover' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l pi -d 'Protection information type (0 = none, the default). With --recover and neither --block-size nor --pi: what the interrupted format asked for (its audit start record)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l pi-interval-exponent -d 'Protection interval exponent (types 2 and 3): 2^E PI intervals per logical block' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l capacity -d 'Capacity: a number of logical blocks, or a percentage of the current capacity ("80%")' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l preset -d 'FORMAT WITH PRESET (SBC-5 5.9): format to one of the presets the drive lists in its Format Presets VPD page (0xB8, see --list-supported); an identifier it does not list is refused before anything is sent. Verified against the preset\'s block length, protection type and designed capacity' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l confirm -d 'Serial number or WWN naming the drive (repeat once per drive). Without it sgctl asks you to type it when stdin is a terminal; there is no default' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l operator -d 'Who performs the job, recorded in the certificate [default: $SGCTL_OPERATOR]' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l max-per-hba -d 'At most N jobs at once on drives behind the same HBA' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l poll-interval -d 'Time between progress polls, a duration: 5, 5s, 500ms (virtual drives: the drive\'s clock is advanced instead)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l enclosure-device -d 'With --leds: the enclosure services devices to ask over SG_IO for drives no kernel enclosure holds (repeatable; /dev/sgN, or a `sim:enclosure` address for virtual drives) instead of those a scan finds' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l asset-tag -d 'Property number: TAG for the only drive of the job, or SERIAL=TAG (repeat per drive; SERIAL may be a WWN)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l operator-title -d 'Title or position of the operator (who sanitizes)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l operator-organisation -d 'Organisation of the operator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l operator-location -d 'Location of the operator (site, room)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l operator-contact -d 'Phone or e-mail of the operator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l validator -d 'Who validates the result (the second person; they sign with `sgctl certificate countersign`)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l validator-title -d 'Title or position of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l validator-organisation -d 'Organisation of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l validator-location -d 'Location of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l validator-contact -d 'Phone or e-mail of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l classification-before -d 'Confidentiality categorization before sanitization (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l classification-after -d 'Confidentiality categorization after sanitization (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l data-backup -d 'Whether and where the data was backed up (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l enclosure-slot -d 'Enclosure slot of the only drive of the job (e.g. "enclosure 0 slot 3")' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l list-supported -d 'Show what the drive says it accepts (VPD 0xB4 block lengths and PI types, VPD 0xB8 format presets, RSOC for FORMAT UNIT), its current geometry and the Format Status log page; read-only, sends no FORMAT UNIT'
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l fast -d 'Fast format (FFMT=1): unwritten blocks read back with unspecified data'
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l recover -d 'Recover a drive reporting "medium format corrupted" (31/00) by formatting it again'
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l dry-run -d 'Print the exact CDBs (hex) that would be sent; send nothing that changes the drive'
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l force -d 'Replace a certificate (FILE, FILE.txt, FILE.html, FILE.pdf, the manifest) that already exists. Without it an existing file refuses the job before anything is sent to a drive. With `format`, also send a block length or PI type the drive does not list in VPD 0xB4 (the verification afterwards still catches a drive that formats to another size)'
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l progress-json -d 'Progress as JSON Lines events on stderr (instead of progress bars)'
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l ignore-reservation -d 'Go ahead although another initiator holds a persistent reservation on the drive (`sgctl reservations DEVICE` shows it; the drive itself may still refuse with RESERVATION CONFLICT)'
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l leds -d 'After the jobs, light the locate LED of every drive that passed and the fault LED of every drive that did not (the enclosure slots the kernel knows, else the slot an enclosure services device lists the drive\'s SAS address in, as `sgctl locate` and `sgctl fault` do; each LED change is audited). Not on --dry-run'
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l method -d 'crypto, block, overwrite, or auto: the first the drive supports in the one auto order (crypto > block > overwrite; on a SATA drive behind a SATL the ATA methods in the same order). ATA methods by name: ata-crypto-scramble, ata-block-erase, ata-overwrite, ata-security-erase, ata-security-erase-enhanced' -r -f -a "crypto\t''
block\t''
overwrite\t''
auto\t''
ata-crypto-scramble\t''
ata-block-erase\t''
ata-overwrite\t''
ata-security-erase\t''
ata-security-erase-enhanced\t''"
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l audit-log -d 'Audit log, JSON Lines, one record before and one after each job [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l certificate -d 'Write a certificate: FILE (JSON, one record per drive), FILE.txt (text), FILE.html and FILE.pdf (a printable certificate of sanitization; PDF/A with the JSON attached); several drives also get FILE.manifest.json and its PDF (docs/records.md)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l signing-key -d 'Sign the certificate with this Ed25519 key (PKCS#8 PEM, mode 0600; `sgctl certificate keygen`) [default: $SGCTL_SIGNING_KEY, else unsigned]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l site -d 'Site file (TOML) with the fields that do not change per drive: destination, sanitized_by/validated_by, classification, backup, [asset_tags]; flags override it' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l destination -d 'Where the drive goes after sanitization' -r -f -a "reuse\t'Back into service inside the organisation'
resale\t'Sold or returned (leaves the organisation\'s control)'
recycle\t'To a recycler'
destroy\t'To destruction'"
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l all-matching -d 'Also every disk found by `sgctl scan` whose vendor/model/serial/firmware/LU name contains all words of FILTER (each still needs its --confirm)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l enclosure -d 'Also every disk the kernel places in enclosure ID (logical identifier, as `sgctl scan` shows it), optionally only slots SLOTS (`0-11`, `3`, `0-3,8`); with --all-matching, the disks matching both (each still needs its --confirm)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l pattern -d 'Overwrite pattern in hex (1..block size bytes), `0x00ff...` or `hex:00ff...`' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l passes -d 'Overwrite passes (1..31)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l validate -d 'Validation: blocks hashed before and read back after; the purge passes only if none survived (only hashes are recorded). `quick` (default): first and last block plus one random block in each of 64 equal subsections, the seed recorded; N: N blocks; `full`: the quick sample, then every block read back; `none`: the record says "not validated"' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l verify -d 'Same as `--validate N` (N sampled blocks: first, last, random; 0 = none)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l confirm -d 'Serial number or WWN naming the drive (repeat once per drive). Without it sgctl asks you to type it when stdin is a terminal; there is no default' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l operator -d 'Who performs the job, recorded in the certificate [default: $SGCTL_OPERATOR]' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l max-per-hba -d 'At most N jobs at once on drives behind the same HBA' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l poll-interval -d 'Time between progress polls, a duration: 5, 5s, 500ms (virtual drives: the drive\'s clock is advanced instead)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l enclosure-device -d 'With --leds: the enclosure services devices to ask over SG_IO for drives no kernel enclosure holds (repeatable; /dev/sgN, or a `sim:enclosure` address for virtual drives) instead of those a scan finds' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l asset-tag -d 'Property number: TAG for the only drive of the job, or SERIAL=TAG (repeat per drive; SERIAL may be a WWN)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l operator-title -d 'Title or position of the operator (who sanitizes)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l operator-organisation -d 'Organisation of the operator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l operator-location -d 'Location of the operator (site, room)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l operator-contact -d 'Phone or e-mail of the operator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l validator -d 'Who validates the result (the second person; they sign with `sgctl certificate countersign`)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l validator-title -d 'Title or position of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l validator-organisation -d 'Organisation of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l validator-location -d 'Location of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l validator-contact -d 'Phone or e-mail of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l classification-before -d 'Confidentiality categorization before sanitization (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l classification-after -d 'Confidentiality categorization after sanitization (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l data-backup -d 'Whether and where the data was backed up (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l enclosure-slot -d 'Enclosure slot of the only drive of the job (e.g. "enclosure 0 slot 3")' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l support -d 'Only report which sanitize methods the drive supports'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l crypto -d 'Same as `--method crypto`: CRYPTOGRAPHIC ERASE'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l block -d 'Same as `--method block`: BLOCK ERASE'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l overwrite -d 'Same as `--method overwrite`: OVERWRITE with --pattern (default 4 zero bytes), --passes, --invert'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l exit-failure-mode -d 'EXIT FAILURE MODE: leave the failure state of a sanitize that ran with --ause'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l invert -d 'Invert the pattern between passes'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l ause -d 'AUSE: allow EXIT FAILURE MODE if this sanitize fails'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l znr -d 'ZNR: zoned drives keep their write pointers'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l dry-run -d 'Print the exact CDBs (hex) that would be sent; send nothing that changes the drive'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l force -d 'Replace a certificate (FILE, FILE.txt, FILE.html, FILE.pdf, the manifest) that already exists. Without it an existing file refuses the job before anything is sent to a drive. With `format`, also send a block length or PI type the drive does not list in VPD 0xB4 (the verification afterwards still catches a drive that formats to another size)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l progress-json -d 'Progress as JSON Lines events on stderr (instead of progress bars)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l ignore-reservation -d 'Go ahead although another initiator holds a persistent reservation on the drive (`sgctl reservations DEVICE` shows it; the drive itself may still refuse with RESERVATION CONFLICT)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l leds -d 'After the jobs, light the locate LED of every drive that passed and the fault LED of every drive that did not (the enclosure slots the kernel knows, else the slot an enclosure services device lists the drive\'s SAS address in, as `sgctl locate` and `sgctl fault` do; each LED change is audited). Not on --dry-run'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand wait" -l audit-log -d 'Audit log to look for the interrupted job in [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand wait" -l poll-interval -d 'Time between polls (a duration: 5, 5s, 500ms)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand wait" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand wait" -l progress-json -d 'Progress as JSON Lines events on stderr'
complete -c sgctl -n "__fish_sgctl_using_subcommand wait" -l resume -d 'Require an interrupted job of this drive in the audit log to finish (without it, wait also just watches a drive whose job it does not find)'
complete -c sgctl -n "__fish_sgctl_using_subcommand wait" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand wait" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand wait" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and not __fish_seen_subcommand_from run pts review compare help" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and not __fish_seen_subcommand_from run pts review compare help" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and not __fish_seen_subcommand_from run pts review compare help" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and not __fish_seen_subcommand_from run pts review compare help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and not __fish_seen_subcommand_from run pts review compare help" -f -a "run" -d 'Run one workload (like one fio job) and report IOPS, MB/s, latency percentiles, the time series, CPU per I/O and errors'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and not __fish_seen_subcommand_from run pts review compare help" -f -a "pts" -d 'SNIA PTS tests (IOPS, TP, LAT, WSAT, HIR, XSR, ECW, DIRTH): purge, precondition, rounds to steady state, report directory'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and not __fish_seen_subcommand_from run pts review compare help" -f -a "review" -d 'The reviewers\' tests: write cliff, QD sweep, profiles, over-provisioning'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and not __fish_seen_subcommand_from run pts review compare help" -f -a "compare" -d 'Two or more reports side by side: key figures with differences, charts overlaid'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and not __fish_seen_subcommand_from run pts review compare help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l sysroot -d 'Root for the sysfs lookup of --enclosure (tests use a fake tree)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l rw -d 'Access pattern (fio\'s rw=; `rw` is taken for randrw)' -r -f -a "read\t'Sequential reads'
write\t'Sequential writes'
randread\t'Random reads'
randwrite\t'Random writes'
randrw\t'Random reads and writes, --mix percent reads'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l engine -d 'Engine (ENGINES below)' -r -f -a "auto\t'uring on a block node or file with a power-of-two block length, sg otherwise, sim on sim:'
uring\t'io_uring with O_DIRECT'
sg\t'SCSI READ/WRITE through /dev/sgN\'s asynchronous interface'
sim\t'A sim: virtual drive on its virtual clock'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l audit-log -d 'Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l report -d 'Also write DIR/report.json (drive identity, host, engine, settings, write cache, the whole result with its time series and latency histogram; docs/bench-report.md) and DIR/report.html (charts: IOPS, MB/s and latency against time, latency histogram and exceedance, the percentile table). Compare runs with `sgctl bench compare`' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l enclosure -d 'Instead of DEVICE: the disk the kernel places in enclosure ID, slot SLOT (as `sgctl scan` shows them); refused when ID[:SLOTS] names no disk or more than one' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l mix -d 'Read percent for randrw (fio rwmixread)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l bs -d 'Block size (4096, 4k, 520, 8320...)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l bssplit -d 'Weighted block sizes, fio style: 4k/67:8k/10:16k/23' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l qd -d 'Outstanding I/Os per job' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l jobs -d 'Job threads (total outstanding = jobs × qd)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l runtime -d 'Measure for this long (10, 10s, 500ms, 2m, 1h) [default: 10s]' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l bytes -d 'Transfer this many bytes in total instead (1g, 512m...)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l ramp -d 'Warm-up before measuring (not counted)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l range -d 'ActiveRange: percent of capacity (50%) or OFFSET:LEN in bytes (1g:10g) [default: all]' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l distribution -d 'Offset distribution: uniform, zoned:50/5:30/15:20/80 (IO%/RANGE%...), zipf:THETA' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l align -d 'Offset alignment [default: the smallest block size]' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l log-interval -d 'Time-series interval' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l pattern -d 'Write data: random (incompressible, unique per write), zeros, or hex:DEADBEEF' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l seed -d 'Random seed for offsets and data' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l submit-batch -d 'io_uring: submit up to N queued I/Os per io_uring_enter. 1 (the default, as fio\'s iodepth_batch_submit) gives each I/O a call of its own; a larger N makes fewer system calls. Which is faster depends on the stack: docs/bench-engine.md, "One I/O per submit" and "Batched submission again"' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l cpu-latency -d 'Hold the CPUs\' idle wake-up latency at most US microseconds for the run (a PM QoS request on /dev/cpu_dma_latency, root only; 0: idle CPUs poll instead of sleeping). At low queue depth, waking a CPU from a deep idle state (or a virtual CPU that halts) can be most of each I/O\'s latency; cyclictest holds 0, tuned\'s latency-performance 1' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l confirm -d 'Serial or WWN naming the drive (writing workloads; a file\'s path, a block device\'s kernel name). Without it sgctl asks on a terminal' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l verify -d 'Every written block carries its LBA, a sequence number and a checksum; reads check them (exit 5 on a bad block)'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l iopoll -d 'io_uring: poll for completions (needs driver poll queues; refused when absent)'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l sqpoll -d 'io_uring: a kernel thread polls the submission queue'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l continue-on-error -d 'Count I/O errors and keep going instead of stopping at the first'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l progress-json -d 'Progress as JSON Lines on stderr (one object per interval)'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l test -d 'Tests (comma-separated or repeated; what each does is below)' -r -f -a "iops\t'IOPS'
tp\t'Throughput'
lat\t'Latency'
wsat\t'Write saturation'
hir\t'Host idle recovery'
xsr\t'Cross-stimulus recovery'
ecw\t'Enterprise composite workload'
dirth\t'Demand intensity / response-time histogram'
all\t'Every test, in the order above'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l sysroot -d 'Root for the sysfs lookup of --enclosure (tests use a fake tree)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l purge -d 'Purge method before each test, named as `sanitize --method`: auto (block > crypto > overwrite > format: a block erase returns the flash to its fresh-out-of-box state), crypto, block, overwrite, format, or none (the report then says NOT PURGED)' -r -f -a "auto\t'The first the drive supports for a benchmark: block > crypto > overwrite > format. Not `sanitize`\'s order on purpose: a block erase returns the flash to its fresh-out-of-box state, which the PTS purge is for; a crypto erase may leave every LBA mapped (docs/cli-conventions.md)'
crypto\t'SANITIZE CRYPTOGRAPHIC ERASE'
block\t'SANITIZE BLOCK ERASE'
overwrite\t'SANITIZE OVERWRITE (one pass of zeros)'
format\t'FORMAT UNIT at the current block size and protection (full format)'
none\t'No purge: the report says NOT PURGED'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l report -d 'Report directory (report.json, purge certificates) [default: ./sgctl-bench-SERIAL-TIME]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l resume -d 'Continue the run saved in DIR from its last completed round (same drive only; a sim: drive needs the run\'s state=FILE)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l engine -d 'Engine (as `bench run --engine`)' -r -f -a "auto\t'uring on a block node or file with a power-of-two block length, sg otherwise, sim on sim:'
uring\t'io_uring with O_DIRECT'
sg\t'SCSI READ/WRITE through /dev/sgN\'s asynchronous interface'
sim\t'A sim: virtual drive on its virtual clock'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l write-cache -d 'Write cache during the run' -r -f -a "disabled\t'WCE=0 for the run (PTS-E)'
enabled\t'WCE=1 for the run (PTS-C)'
unchanged\t'Left as the drive has it'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l audit-log -d 'Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l enclosure -d 'Instead of DEVICE: the disk the kernel places in enclosure ID, slot SLOT (as `sgctl scan` shows them); refused when ID[:SLOTS] names no disk or more than one' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l confirm -d 'Serial number or WWN naming the drive' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l tc -l jobs -d 'Threads (TC, what `bench run` calls --jobs); TOIO = TC × QD' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l qd -d 'Queue depth per thread (QD)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l active-range -d 'ActiveRange in percent of the capacity (PTS-E: 100; a smaller one is reported)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l max-rounds -d 'Most WDPC rounds before "steady state not reached"' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l time-scale -d 'Drive seconds per PTS second (0 < F ≤ 1): short rounds for a trial run. On a capacity-scaled sim: drive the default is its capacity over the profile\'s' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l cpu-latency -d 'Hold the CPUs\' idle wake-up latency at most US microseconds for the whole run (a PM QoS request on /dev/cpu_dma_latency, root only; 0: idle CPUs poll), as `bench run --cpu-latency` does; the report\'s notes name the limit. Not on a sim: drive' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l progress-json -d 'Progress as JSON Lines on stderr'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l part -d 'Parts to run [default: all, in this order]' -r -f -a "write_cliff\t'FOB 4K random write until steady state: the write cliff'
qd_sweep\t'4K random read and write at QD 1..256'
basics\t'4K/8K random, 128K sequential at QD32'
profiles\t'Database, email, file and web server mixes at QD 1..256'
op\t'The over-provisioning experiment (FORMAT UNIT to a smaller capacity and back)'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l sysroot -d 'Root for the sysfs lookup of --enclosure (tests use a fake tree)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l purge -d 'Purge method before each test, named as `sanitize --method`: auto (block > crypto > overwrite > format: a block erase returns the flash to its fresh-out-of-box state), crypto, block, overwrite, format, or none (the report then says NOT PURGED)' -r -f -a "auto\t'The first the drive supports for a benchmark: block > crypto > overwrite > format. Not `sanitize`\'s order on purpose: a block erase returns the flash to its fresh-out-of-box state, which the PTS purge is for; a crypto erase may leave every LBA mapped (docs/cli-conventions.md)'
crypto\t'SANITIZE CRYPTOGRAPHIC ERASE'
block\t'SANITIZE BLOCK ERASE'
overwrite\t'SANITIZE OVERWRITE (one pass of zeros)'
format\t'FORMAT UNIT at the current block size and protection (full format)'
none\t'No purge: the report says NOT PURGED'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l report -d 'Report directory (report.json, purge certificates) [default: ./sgctl-bench-SERIAL-TIME]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l resume -d 'Continue the run saved in DIR from its last completed round (same drive only; a sim: drive needs the run\'s state=FILE)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l engine -d 'Engine (as `bench run --engine`)' -r -f -a "auto\t'uring on a block node or file with a power-of-two block length, sg otherwise, sim on sim:'
uring\t'io_uring with O_DIRECT'
sg\t'SCSI READ/WRITE through /dev/sgN\'s asynchronous interface'
sim\t'A sim: virtual drive on its virtual clock'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l write-cache -d 'Write cache during the run' -r -f -a "disabled\t'WCE=0 for the run (PTS-E)'
enabled\t'WCE=1 for the run (PTS-C)'
unchanged\t'Left as the drive has it'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l audit-log -d 'Audit log [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l op-extra -d 'Over-provisioning experiment: capacity left unused, percent' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l enclosure -d 'Instead of DEVICE: the disk the kernel places in enclosure ID, slot SLOT (as `sgctl scan` shows them); refused when ID[:SLOTS] names no disk or more than one' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l confirm -d 'Serial number or WWN naming the drive' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l tc -l jobs -d 'Threads (TC, what `bench run` calls --jobs); TOIO = TC × QD' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l qd -d 'Queue depth per thread (QD)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l active-range -d 'ActiveRange in percent of the capacity (PTS-E: 100; a smaller one is reported)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l max-rounds -d 'Most WDPC rounds before "steady state not reached"' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l time-scale -d 'Drive seconds per PTS second (0 < F ≤ 1): short rounds for a trial run. On a capacity-scaled sim: drive the default is its capacity over the profile\'s' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l cpu-latency -d 'Hold the CPUs\' idle wake-up latency at most US microseconds for the whole run (a PM QoS request on /dev/cpu_dma_latency, root only; 0: idle CPUs poll), as `bench run --cpu-latency` does; the report\'s notes name the limit. Not on a sim: drive' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l progress-json -d 'Progress as JSON Lines on stderr'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from compare" -l html -d 'Write the comparison as one self-contained HTML file' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from compare" -l report -d 'Write DIR/compare.json and DIR/compare.html' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from compare" -l label -d 'Name of each report in tables and legends, in order [default: its directory\'s name]' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from compare" -l workload -d 'The cell whose latency exceedance the suites\' charts overlay, by its label (`0/100-4k`, `100/0-8k`, `tc1-qd1`, ...) [default: each test\'s tracking cell]' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from compare" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from compare" -l allow-different -d 'Compare reports of different workloads (the differences are listed) instead of refusing them'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from compare" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from compare" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from compare" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from help" -f -a "run" -d 'Run one workload (like one fio job) and report IOPS, MB/s, latency percentiles, the time series, CPU per I/O and errors'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from help" -f -a "pts" -d 'SNIA PTS tests (IOPS, TP, LAT, WSAT, HIR, XSR, ECW, DIRTH): purge, precondition, rounds to steady state, report directory'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from help" -f -a "review" -d 'The reviewers\' tests: write cliff, QD sweep, profiles, over-provisioning'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from help" -f -a "compare" -d 'Two or more reports side by side: key figures with differences, charts overlaid'
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -f -a "discover" -d 'Security protocols and Level 0 discovery (every feature descriptor)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -f -a "status" -d 'SSC, locking state, MSID-still-default check and (Enterprise) bands'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -f -a "bands" -d 'List Enterprise bands (Locking table rows)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -f -a "configure-band" -d 'Configure an Enterprise band\'s range and locking (as BandMaster N)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -f -a "lock" -d 'Lock a band (read and write; as BandMaster N)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -f -a "unlock" -d 'Unlock a band (as BandMaster N)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -f -a "take-ownership" -d 'Set SID, EraseMaster and every BandMaster PIN from the MSID to a new PIN. An owned drive is refused: by Level 0 Block SID state (no try), else by an MSID check that costs a SID try, not made when SID\'s try counter shows one try left'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -f -a "erase" -d 'Cryptographic erase of bands (Enterprise `Erase`, as EraseMaster). DESTROYS DATA'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -f -a "revert" -d 'PSID revert to factory state (crypto erase of the whole drive). DESTROYS DATA'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and not __fish_seen_subcommand_from discover status bands configure-band lock unlock take-ownership erase revert help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from discover" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from discover" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from discover" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from discover" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from status" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from status" -l check-ownership -d 'Also try the MSID as the SID\'s PIN to tell factory from owned credentials. A failed try counts against SID\'s TryLimit (5 on many drives, reset by a power cycle)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from status" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from status" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from bands" -l pin-file -d 'Read the PIN from this file: its bytes as they are (one trailing newline ignored, at most 32 bytes); the file must be yours and private (mode 0600)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from bands" -l pin-env -d 'Read the PIN from this environment variable (its bytes as they are)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from bands" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from bands" -l pin-prompt -d 'Prompt for the PIN on the terminal (no echo)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from bands" -l msid -d 'Use the drive\'s MSID (factory state: every credential equals the MSID)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from bands" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from bands" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from bands" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -l pin-file -d 'Read the PIN from this file: its bytes as they are (one trailing newline ignored, at most 32 bytes); the file must be yours and private (mode 0600)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -l band -d 'Band number (0 = global range)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -l start -d 'First LBA (not for band 0)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -l length -d 'Length in blocks (not for band 0)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -l pin-env -d 'Read the PIN from this environment variable (its bytes as they are)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -l lock-enabled -d 'Enable read and write locking'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -l lock-on-reset -d 'Relock at power cycle'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -l pin-prompt -d 'Prompt for the PIN on the terminal (no echo)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -l msid -d 'Use the drive\'s MSID (factory state: every credential equals the MSID)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from lock" -l pin-file -d 'Read the PIN from this file: its bytes as they are (one trailing newline ignored, at most 32 bytes); the file must be yours and private (mode 0600)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from lock" -l band -d 'Band number' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from lock" -l pin-env -d 'Read the PIN from this environment variable (its bytes as they are)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from lock" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from lock" -l pin-prompt -d 'Prompt for the PIN on the terminal (no echo)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from lock" -l msid -d 'Use the drive\'s MSID (factory state: every credential equals the MSID)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from lock" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from lock" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from lock" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from unlock" -l pin-file -d 'Read the PIN from this file: its bytes as they are (one trailing newline ignored, at most 32 bytes); the file must be yours and private (mode 0600)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from unlock" -l band -d 'Band number' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from unlock" -l pin-env -d 'Read the PIN from this environment variable (its bytes as they are)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from unlock" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from unlock" -l pin-prompt -d 'Prompt for the PIN on the terminal (no echo)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from unlock" -l msid -d 'Use the drive\'s MSID (factory state: every credential equals the MSID)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from unlock" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from unlock" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from unlock" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from take-ownership" -l new-pin-file -d 'Read the new PIN from this file (its bytes, at most 32; yours, mode 0600)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from take-ownership" -l new-pin-env -d 'Read the new PIN from this environment variable' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from take-ownership" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from take-ownership" -l new-pin-prompt -d 'Prompt for the new PIN (twice, no echo)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from take-ownership" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from take-ownership" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from take-ownership" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l pin-file -d 'Read the PIN from this file: its bytes as they are (one trailing newline ignored, at most 32 bytes); the file must be yours and private (mode 0600)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l audit-log -d 'Audit log, JSON Lines, one record before and one after each job [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l certificate -d 'Write a certificate: FILE (JSON, one record per drive), FILE.txt (text), FILE.html and FILE.pdf (a printable certificate of sanitization; PDF/A with the JSON attached); several drives also get FILE.manifest.json and its PDF (docs/records.md)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l signing-key -d 'Sign the certificate with this Ed25519 key (PKCS#8 PEM, mode 0600; `sgctl certificate keygen`) [default: $SGCTL_SIGNING_KEY, else unsigned]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l site -d 'Site file (TOML) with the fields that do not change per drive: destination, sanitized_by/validated_by, classification, backup, [asset_tags]; flags override it' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l destination -d 'Where the drive goes after sanitization' -r -f -a "reuse\t'Back into service inside the organisation'
resale\t'Sold or returned (leaves the organisation\'s control)'
recycle\t'To a recycler'
destroy\t'To destruction'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l band -d 'Band(s) to erase' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l validate -d 'Validation: read erased blocks back. `quick` (first and last block of each erased band plus one random block in each of 64 subsections, seed recorded), a number of blocks, `full` (every erased block) or `none` (the record says "not validated")' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l pin-env -d 'Read the PIN from this environment variable (its bytes as they are)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l confirm -d 'Serial number or WWN naming the drive (repeat once per drive). Without it sgctl asks you to type it when stdin is a terminal; there is no default' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l operator -d 'Who performs the job, recorded in the certificate [default: $SGCTL_OPERATOR]' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l max-per-hba -d 'At most N jobs at once on drives behind the same HBA' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l poll-interval -d 'Time between progress polls, a duration: 5, 5s, 500ms (virtual drives: the drive\'s clock is advanced instead)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l enclosure-device -d 'With --leds: the enclosure services devices to ask over SG_IO for drives no kernel enclosure holds (repeatable; /dev/sgN, or a `sim:enclosure` address for virtual drives) instead of those a scan finds' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l asset-tag -d 'Property number: TAG for the only drive of the job, or SERIAL=TAG (repeat per drive; SERIAL may be a WWN)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l operator-title -d 'Title or position of the operator (who sanitizes)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l operator-organisation -d 'Organisation of the operator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l operator-location -d 'Location of the operator (site, room)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l operator-contact -d 'Phone or e-mail of the operator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l validator -d 'Who validates the result (the second person; they sign with `sgctl certificate countersign`)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l validator-title -d 'Title or position of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l validator-organisation -d 'Organisation of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l validator-location -d 'Location of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l validator-contact -d 'Phone or e-mail of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l classification-before -d 'Confidentiality categorization before sanitization (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l classification-after -d 'Confidentiality categorization after sanitization (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l data-backup -d 'Whether and where the data was backed up (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l enclosure-slot -d 'Enclosure slot of the only drive of the job (e.g. "enclosure 0 slot 3")' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l all -d 'Erase every band, 0 (the global range) to MaxRanges: the whole drive. Without it the record and certificate state the erased bands\' LBA ranges and share of the capacity, and never call it a purge of the drive'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l pin-prompt -d 'Prompt for the PIN on the terminal (no echo)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l msid -d 'Use the drive\'s MSID (factory state: every credential equals the MSID)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l dry-run -d 'Print the exact CDBs (hex) that would be sent; send nothing that changes the drive'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l force -d 'Replace a certificate (FILE, FILE.txt, FILE.html, FILE.pdf, the manifest) that already exists. Without it an existing file refuses the job before anything is sent to a drive. With `format`, also send a block length or PI type the drive does not list in VPD 0xB4 (the verification afterwards still catches a drive that formats to another size)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l progress-json -d 'Progress as JSON Lines events on stderr (instead of progress bars)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l ignore-reservation -d 'Go ahead although another initiator holds a persistent reservation on the drive (`sgctl reservations DEVICE` shows it; the drive itself may still refuse with RESERVATION CONFLICT)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l leds -d 'After the jobs, light the locate LED of every drive that passed and the fault LED of every drive that did not (the enclosure slots the kernel knows, else the slot an enclosure services device lists the drive\'s SAS address in, as `sgctl locate` and `sgctl fault` do; each LED change is audited). Not on --dry-run'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l psid-file -d 'Read the PSID from this file (its bytes, at most 32; yours, mode 0600)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l audit-log -d 'Audit log, JSON Lines, one record before and one after each job [default: $SGCTL_AUDIT_LOG, else /var/log/sgctl/audit.jsonl]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l certificate -d 'Write a certificate: FILE (JSON, one record per drive), FILE.txt (text), FILE.html and FILE.pdf (a printable certificate of sanitization; PDF/A with the JSON attached); several drives also get FILE.manifest.json and its PDF (docs/records.md)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l signing-key -d 'Sign the certificate with this Ed25519 key (PKCS#8 PEM, mode 0600; `sgctl certificate keygen`) [default: $SGCTL_SIGNING_KEY, else unsigned]' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l site -d 'Site file (TOML) with the fields that do not change per drive: destination, sanitized_by/validated_by, classification, backup, [asset_tags]; flags override it' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l destination -d 'Where the drive goes after sanitization' -r -f -a "reuse\t'Back into service inside the organisation'
resale\t'Sold or returned (leaves the organisation\'s control)'
recycle\t'To a recycler'
destroy\t'To destruction'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l psid-env -d 'Read the PSID from this environment variable' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l validate -d 'Validation: read blocks back. `quick` (first and last block plus one random block in each of 64 subsections, hashed before and compared after, seed recorded), a number of blocks, `full` (the sample, then every block read) or `none` (the record says "not validated"). Blocks of a locked band cannot be read before: the record then says "inconclusive"' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l confirm -d 'Serial number or WWN naming the drive (repeat once per drive). Without it sgctl asks you to type it when stdin is a terminal; there is no default' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l operator -d 'Who performs the job, recorded in the certificate [default: $SGCTL_OPERATOR]' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l max-per-hba -d 'At most N jobs at once on drives behind the same HBA' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l poll-interval -d 'Time between progress polls, a duration: 5, 5s, 500ms (virtual drives: the drive\'s clock is advanced instead)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l enclosure-device -d 'With --leds: the enclosure services devices to ask over SG_IO for drives no kernel enclosure holds (repeatable; /dev/sgN, or a `sim:enclosure` address for virtual drives) instead of those a scan finds' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l asset-tag -d 'Property number: TAG for the only drive of the job, or SERIAL=TAG (repeat per drive; SERIAL may be a WWN)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l operator-title -d 'Title or position of the operator (who sanitizes)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l operator-organisation -d 'Organisation of the operator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l operator-location -d 'Location of the operator (site, room)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l operator-contact -d 'Phone or e-mail of the operator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l validator -d 'Who validates the result (the second person; they sign with `sgctl certificate countersign`)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l validator-title -d 'Title or position of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l validator-organisation -d 'Organisation of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l validator-location -d 'Location of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l validator-contact -d 'Phone or e-mail of the validator' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l classification-before -d 'Confidentiality categorization before sanitization (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l classification-after -d 'Confidentiality categorization after sanitization (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l data-backup -d 'Whether and where the data was backed up (optional)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l enclosure-slot -d 'Enclosure slot of the only drive of the job (e.g. "enclosure 0 slot 3")' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l psid-prompt -d 'Prompt for the PSID (no echo)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l dry-run -d 'Print the exact CDBs (hex) that would be sent; send nothing that changes the drive'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l force -d 'Replace a certificate (FILE, FILE.txt, FILE.html, FILE.pdf, the manifest) that already exists. Without it an existing file refuses the job before anything is sent to a drive. With `format`, also send a block length or PI type the drive does not list in VPD 0xB4 (the verification afterwards still catches a drive that formats to another size)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l progress-json -d 'Progress as JSON Lines events on stderr (instead of progress bars)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l ignore-reservation -d 'Go ahead although another initiator holds a persistent reservation on the drive (`sgctl reservations DEVICE` shows it; the drive itself may still refuse with RESERVATION CONFLICT)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l leds -d 'After the jobs, light the locate LED of every drive that passed and the fault LED of every drive that did not (the enclosure slots the kernel knows, else the slot an enclosure services device lists the drive\'s SAS address in, as `sgctl locate` and `sgctl fault` do; each LED change is audited). Not on --dry-run'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from help" -f -a "discover" -d 'Security protocols and Level 0 discovery (every feature descriptor)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from help" -f -a "status" -d 'SSC, locking state, MSID-still-default check and (Enterprise) bands'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from help" -f -a "bands" -d 'List Enterprise bands (Locking table rows)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from help" -f -a "configure-band" -d 'Configure an Enterprise band\'s range and locking (as BandMaster N)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from help" -f -a "lock" -d 'Lock a band (read and write; as BandMaster N)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from help" -f -a "unlock" -d 'Unlock a band (as BandMaster N)'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from help" -f -a "take-ownership" -d 'Set SID, EraseMaster and every BandMaster PIN from the MSID to a new PIN. An owned drive is refused: by Level 0 Block SID state (no try), else by an MSID check that costs a SID try, not made when SID\'s try counter shows one try left'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from help" -f -a "erase" -d 'Cryptographic erase of bands (Enterprise `Erase`, as EraseMaster). DESTROYS DATA'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from help" -f -a "revert" -d 'PSID revert to factory state (crypto erase of the whole drive). DESTROYS DATA'
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand reservations" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand reservations" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand reservations" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand reservations" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and not __fish_seen_subcommand_from verify help" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and not __fish_seen_subcommand_from verify help" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and not __fish_seen_subcommand_from verify help" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and not __fish_seen_subcommand_from verify help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and not __fish_seen_subcommand_from verify help" -f -a "verify" -d 'Check that no record of an audit log was changed, removed, inserted or reordered'
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and not __fish_seen_subcommand_from verify help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and __fish_seen_subcommand_from verify" -l head -d 'A head printed by an earlier verify: it must still be in the log (detects records removed from the end)' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and __fish_seen_subcommand_from verify" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and __fish_seen_subcommand_from verify" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and __fish_seen_subcommand_from verify" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Check that no record of an audit log was changed, removed, inserted or reordered'
complete -c sgctl -n "__fish_sgctl_using_subcommand audit; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and not __fish_seen_subcommand_from verify keygen countersign help" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and not __fish_seen_subcommand_from verify keygen countersign help" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and not __fish_seen_subcommand_from verify keygen countersign help" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and not __fish_seen_subcommand_from verify keygen countersign help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and not __fish_seen_subcommand_from verify keygen countersign help" -f -a "verify" -d 'Check a certificate written by `format|sanitize --certificate FILE` with a signing key'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and not __fish_seen_subcommand_from verify keygen countersign help" -f -a "keygen" -d 'Create a signing key pair: FILE (private, PKCS#8 PEM, mode 0600) and FILE.pub'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and not __fish_seen_subcommand_from verify keygen countersign help" -f -a "countersign" -d 'Add the validator\'s identity and Ed25519 signature to a signed certificate'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and not __fish_seen_subcommand_from verify keygen countersign help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from verify" -l pubkey -d 'The signer\'s public key (SPKI PEM, e.g. KEY.pub from `keygen`) that must have signed' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from verify" -l countersigner-pubkey -d 'The validator\'s public key that must have made every countersignature' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from verify" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from verify" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from verify" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from keygen" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from keygen" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from keygen" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from keygen" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from countersign" -l key -d 'The validator\'s Ed25519 private key (PKCS#8 PEM, mode 0600; `sgctl certificate keygen`)' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from countersign" -l name -d 'The validator\'s name' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from countersign" -l title -d 'Title or position' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from countersign" -l organisation -d 'Organisation' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from countersign" -l location -d 'Location' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from countersign" -l contact -d 'Phone or e-mail' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from countersign" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from countersign" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from countersign" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from countersign" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Check a certificate written by `format|sanitize --certificate FILE` with a signing key'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from help" -f -a "keygen" -d 'Create a signing key pair: FILE (private, PKCS#8 PEM, mode 0600) and FILE.pub'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from help" -f -a "countersign" -d 'Add the validator\'s identity and Ed25519 signature to a signed certificate'
complete -c sgctl -n "__fish_sgctl_using_subcommand certificate; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and not __fish_seen_subcommand_from identify smart logs help" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and not __fish_seen_subcommand_from identify smart logs help" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and not __fish_seen_subcommand_from identify smart logs help" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and not __fish_seen_subcommand_from identify smart logs help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and not __fish_seen_subcommand_from identify smart logs help" -f -a "identify" -d 'IDENTIFY DEVICE: identity, capacity, sector sizes, features, Security and Sanitize words'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and not __fish_seen_subcommand_from identify smart logs help" -f -a "smart" -d 'SMART READ DATA and THRESHOLDS: attributes, self-assessment (SMART RETURN STATUS)'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and not __fish_seen_subcommand_from identify smart logs help" -f -a "logs" -d 'Logs (READ LOG EXT): directory, Device Statistics, self-test, NCQ error, internal status'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and not __fish_seen_subcommand_from identify smart logs help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from identify" -l inhex -d 'Decode bytes from a file instead of a device' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from identify" -l cdb -d 'ATA PASS-THROUGH CDB size: 12, 16 or 32' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from identify" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from identify" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from identify" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from identify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from smart" -l inhex -d 'Decode bytes from a file instead of a device' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from smart" -l cdb -d 'ATA PASS-THROUGH CDB size: 12, 16 or 32' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from smart" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from smart" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from smart" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from smart" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from logs" -l inhex -d 'Decode bytes from a file instead of a device' -r -F
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from logs" -l cdb -d 'ATA PASS-THROUGH CDB size: 12, 16 or 32' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from logs" -l log -d 'Only this log address (00h directory, 04h device statistics, 06h/07h self-test, 10h NCQ command error, 24h current device internal status); decimal or 0x hex' -r -f
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from logs" -l json -d 'Print one JSON document instead of text: sgctl\'s envelope + data, or with `--json=smartctl` (health only) smartctl\'s key names and layout' -r -f -a "sgctl\t'sgctl\'s envelope: `{"json_format_version", "sgctl", "device", "data"}`'
smartctl\t'smartctl\'s key names and layout (`health` only): `device` as an object, the figures at the top level as `smartctl -j -x` names them, so filters written for smartctl work'"
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from logs" -s v -l verbose -d 'Print each CDB and the response/sense bytes on stderr (repeat for more)'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from logs" -l hex -d 'Dump the raw response in hex instead of decoding it'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from logs" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from help" -f -a "identify" -d 'IDENTIFY DEVICE: identity, capacity, sector sizes, features, Security and Sanitize words'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from help" -f -a "smart" -d 'SMART READ DATA and THRESHOLDS: attributes, self-assessment (SMART RETURN STATUS)'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from help" -f -a "logs" -d 'Logs (READ LOG EXT): directory, Device Statistics, self-test, NCQ error, internal status'
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "inquiry" -d 'Standard INQUIRY data (vendor, product, revision, PROTECT, MultiP) and serial number'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "vpd" -d 'A VPD page (default: the list of supported pages)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "readcap" -d 'READ CAPACITY (16), or (10): size, block lengths, protection, provisioning'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "opcodes" -d 'REPORT SUPPORTED OPERATION CODES: the commands the device implements'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "tur" -d 'TEST UNIT READY (exit 0 when ready, 4 with the sense data when not)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "sense" -d 'REQUEST SENSE: current sense data (progress of a format or sanitize)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "luns" -d 'REPORT LUNS with each LUN decoded'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "modes" -d 'MODE SENSE: header, block descriptors and decoded mode pages'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "decode" -d 'Decode a saved response (sg3_utils --inhex format) without the device'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "sim" -d 'Virtual drives: list profiles, show state, inject faults, benchmark the media model'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "scan" -d 'List SCSI drives grouped by logical unit with all their paths'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "paths" -d 'Show every path of the drive a device belongs to'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "locate" -d 'Switch the locate (identify) LED of a drive\'s enclosure slot on or off'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "fault" -d 'Switch the fault LED of a drive\'s enclosure slot on or off'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "logs" -d 'Read and decode log pages (LOG SENSE), like sg_logs'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "health" -d 'Health report per drive: endurance and projection, temperature, defects, errors, self-tests, failure prediction, SAS phys; rules and an exit bit mask'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "selftest" -d 'Self-tests: start short/extended (background or foreground), abort, show progress and the Self-Test Results log'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "defects" -d 'READ DEFECT DATA: the grown (or primary) defect list, count and entries'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "power" -d 'START STOP UNIT with power conditions (active, idle, standby, stop, start) and the power condition REQUEST SENSE reports'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "reassign" -d 'REASSIGN BLOCKS: move blocks to spares (grown defect list), behind the safety gate'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "firmware" -d 'Download microcode (WRITE BUFFER modes 5, 7, 0xd, 0xe; activation 0Fh) behind the safety gate, the new revision verified'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "format" -d 'Format drives: block size, protection type, capacity (verified; destroys data)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "sanitize" -d 'Sanitize drives: crypto/block erase or overwrite (verified, recorded; destroys data)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "wait" -d 'Watch a running format or sanitize until it ends'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "bench" -d 'Benchmark a drive: `bench run` issues one workload (like a fio job) through io_uring, sg or the virtual drive and reports IOPS, latency percentiles, CPU per I/O'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "tcg" -d 'TCG Storage: Level 0 discovery, Enterprise bands (lock, unlock, crypto erase), ownership, PSID revert'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "reservations" -d 'SCSI-3 persistent reservations: keys, holder, type, per target port (read-only)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "audit" -d 'Audit log: verify the hash chain (changed, removed or reordered records)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "certificate" -d 'Certificates: verify the Ed25519 signature; create a signing key'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "ata" -d 'ATA side of a SATA drive behind a SATL: IDENTIFY, SMART, logs (ATA PASS-THROUGH)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and not __fish_seen_subcommand_from inquiry vpd readcap opcodes tur sense luns modes decode sim scan paths locate fault logs health selftest defects power reassign firmware format sanitize wait bench tcg reservations audit certificate ata help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from sim" -f -a "list" -d 'List the drive profiles usable as `sim:PROFILE`'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from sim" -f -a "info" -d 'Show a virtual drive\'s state (format, protection, clock, wear)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from sim" -f -a "fault" -d 'Inject faults into a virtual drive (persisted when the address has `state=FILE`)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from sim" -f -a "bench" -d 'Benchmark the media model of virtual drives (FOB vs steady state vs extra OP)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from sim" -f -a "serve" -d 'Serve a virtual drive to this kernel as a real SCSI disk (TCMU + tcm_loop; root)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from bench" -f -a "run" -d 'Run one workload (like one fio job) and report IOPS, MB/s, latency percentiles, the time series, CPU per I/O and errors'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from bench" -f -a "pts" -d 'SNIA PTS tests (IOPS, TP, LAT, WSAT, HIR, XSR, ECW, DIRTH): purge, precondition, rounds to steady state, report directory'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from bench" -f -a "review" -d 'The reviewers\' tests: write cliff, QD sweep, profiles, over-provisioning'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from bench" -f -a "compare" -d 'Two or more reports side by side: key figures with differences, charts overlaid'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from tcg" -f -a "discover" -d 'Security protocols and Level 0 discovery (every feature descriptor)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from tcg" -f -a "status" -d 'SSC, locking state, MSID-still-default check and (Enterprise) bands'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from tcg" -f -a "bands" -d 'List Enterprise bands (Locking table rows)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from tcg" -f -a "configure-band" -d 'Configure an Enterprise band\'s range and locking (as BandMaster N)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from tcg" -f -a "lock" -d 'Lock a band (read and write; as BandMaster N)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from tcg" -f -a "unlock" -d 'Unlock a band (as BandMaster N)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from tcg" -f -a "take-ownership" -d 'Set SID, EraseMaster and every BandMaster PIN from the MSID to a new PIN. An owned drive is refused: by Level 0 Block SID state (no try), else by an MSID check that costs a SID try, not made when SID\'s try counter shows one try left'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from tcg" -f -a "erase" -d 'Cryptographic erase of bands (Enterprise `Erase`, as EraseMaster). DESTROYS DATA'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from tcg" -f -a "revert" -d 'PSID revert to factory state (crypto erase of the whole drive). DESTROYS DATA'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from audit" -f -a "verify" -d 'Check that no record of an audit log was changed, removed, inserted or reordered'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from certificate" -f -a "verify" -d 'Check a certificate written by `format|sanitize --certificate FILE` with a signing key'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from certificate" -f -a "keygen" -d 'Create a signing key pair: FILE (private, PKCS#8 PEM, mode 0600) and FILE.pub'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from certificate" -f -a "countersign" -d 'Add the validator\'s identity and Ed25519 signature to a signed certificate'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from ata" -f -a "identify" -d 'IDENTIFY DEVICE: identity, capacity, sector sizes, features, Security and Sanitize words'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from ata" -f -a "smart" -d 'SMART READ DATA and THRESHOLDS: attributes, self-assessment (SMART RETURN STATUS)'
complete -c sgctl -n "__fish_sgctl_using_subcommand help; and __fish_seen_subcommand_from ata" -f -a "logs" -d 'Logs (READ LOG EXT): directory, Device Statistics, self-test, NCQ error, internal status'

# DEVICE completes to the addresses `sgctl scan --names` lists (added by xtask gen-docs).
complete -c sgctl -n "__fish_sgctl_using_subcommand inquiry" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand vpd" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand readcap" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand opcodes" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand tur" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand sense" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand luns" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand modes" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from info" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand sim; and __fish_seen_subcommand_from fault" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand paths" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand locate" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand fault" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand logs" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand health" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand selftest" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand defects" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand power" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand reassign" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand firmware" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand format" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand sanitize" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand wait" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from run" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from pts" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand bench; and __fish_seen_subcommand_from review" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from discover" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from status" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from bands" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from configure-band" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from lock" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from unlock" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from take-ownership" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from erase" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand tcg; and __fish_seen_subcommand_from revert" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand reservations" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from identify" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from smart" -f -a "(sgctl scan --names 2>/dev/null)"
complete -c sgctl -n "__fish_sgctl_using_subcommand ata; and __fish_seen_subcommand_from logs" -f -a "(sgctl scan --names 2>/dev/null)"
