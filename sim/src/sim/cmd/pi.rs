//! T10 protection information (SBC-4 4.22): the 8 bytes after each logical block (LOGICAL
//! BLOCK GUARD = CRC-16 T10-DIF of the user data, LOGICAL BLOCK APPLICATION TAG, LOGICAL
//! BLOCK REFERENCE TAG), what RDPROTECT / WRPROTECT / VRPROTECT ask the device server to
//! check, and the sense data of a failed check (ABORTED COMMAND 10/01, 10/02, 10/03 with the
//! LBA in INFORMATION).

use super::rw::crc16_t10dif;
use crate::sim::drive::Drive;
use crate::sim::sense::{key, SimSense};

/// Which fields the device server checks (SBC-4 Tables "RDPROTECT field", "WRPROTECT
/// field", "VRPROTECT field": 001b and 101b check all three, 010b all but the guard, 011b
/// none, 100b only the guard; 000b transfers no protection information).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Checks {
    /// LOGICAL BLOCK GUARD.
    pub guard: bool,
    /// LOGICAL BLOCK APPLICATION TAG (only where the CDB carries an expected tag: 32-byte
    /// CDBs; the 10/16-byte CDBs rely on ATO and the Application Tag mode page, which this
    /// drive does not implement, so it does not check the application tag there).
    pub app: bool,
    /// LOGICAL BLOCK REFERENCE TAG (types 1 and 2; never type 3).
    pub reference: bool,
}

impl Checks {
    /// The checks for a protect field value (1..=5; 0 and the reserved 6, 7 check nothing).
    pub(crate) fn for_protect(protect: u8) -> Checks {
        match protect {
            1 | 5 => Checks {
                guard: true,
                app: true,
                reference: true,
            },
            2 => Checks {
                guard: false,
                app: true,
                reference: true,
            },
            4 => Checks {
                guard: true,
                app: false,
                reference: false,
            },
            _ => Checks {
                guard: false,
                app: false,
                reference: false,
            },
        }
    }
}

impl Checks {
    /// The checks of a read with RDPROTECT 000b on a drive formatted with protection
    /// information (SBC-4 READ(10) protect table, 000b row; VPD 0x86 reports GRD_CHK,
    /// APP_CHK and REF_CHK set): the guard always; the reference tag on type 1 (the LBA) and,
    /// on type 2, when the CDB carries the EXPECTED INITIAL LOGICAL BLOCK REFERENCE TAG
    /// (32-byte CDBs: otherwise the device server has no knowledge of it); the application
    /// tag only where the CDB carries the expected tag and mask (32-byte CDBs).
    pub(crate) fn unprotected_read(prot_type: u8, cdb32: bool) -> Checks {
        Checks {
            guard: prot_type != 0,
            app: prot_type != 0 && cdb32,
            reference: prot_type == 1 || (prot_type == 2 && cdb32),
        }
    }
}

/// What the CDB expects of the tags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Expected {
    /// Type 2 (32-byte CDBs): EXPECTED INITIAL LOGICAL BLOCK REFERENCE TAG, incremented per
    /// block. `None`: the reference tag is the LBA's low 32 bits (type 1).
    pub initial_ref: Option<u32>,
    /// EXPECTED LOGICAL BLOCK APPLICATION TAG and LOGICAL BLOCK APPLICATION TAG MASK (32-byte
    /// CDBs); `None` = not checked.
    pub app: Option<(u16, u16)>,
}

impl Expected {
    /// The reference tag expected for the `i`-th block of a transfer starting at `lba`.
    pub(crate) fn ref_tag(&self, lba: u64, i: u64) -> u32 {
        match self.initial_ref {
            Some(r) => r.wrapping_add(i as u32),
            None => lba.wrapping_add(i) as u32,
        }
    }
}

/// The protection information the drive returns for block `lba` holding `user` data: what
/// the host sent, else what the device server generated when it wrote the block, else (a
/// block never written since FORMAT UNIT) all FFh (SBC-4 4.22.2: FORMAT UNIT initialises
/// the protection information to FFh).
pub(crate) fn stored(d: &Drive, lba: u64, user: &[u8]) -> [u8; 8] {
    if let Some(t) = d.store.pi(lba) {
        return t;
    }
    if !d.store.is_written(lba) {
        return [0xFF; 8];
    }
    generated(d.prot_type, lba as u32, user)
}

/// What the device server generates for a block written without protection information:
/// guard = CRC of the data, application tag 0, reference tag `ref_tag` (type 3: FFFFFFFFh).
pub(crate) fn generated(prot_type: u8, ref_tag: u32, user: &[u8]) -> [u8; 8] {
    let mut pi = [0u8; 8];
    pi[0..2].copy_from_slice(&crc16_t10dif(user).to_be_bytes());
    let rt = if prot_type == 3 { u32::MAX } else { ref_tag };
    pi[4..8].copy_from_slice(&rt.to_be_bytes());
    pi
}

/// Checks one block's protection information (`pi`, sent by the host or read from the
/// medium). An application tag of FFFFh (type 3: and a reference tag of FFFFFFFFh) disables
/// checking of that block (SBC-4 4.22.4).
pub(crate) fn check_block(
    prot_type: u8,
    checks: Checks,
    expect: &Expected,
    lba: u64,
    i: u64,
    user: &[u8],
    pi: &[u8],
) -> Result<(), SimSense> {
    let app = u16::from_be_bytes([pi[2], pi[3]]);
    let rt = u32::from_be_bytes([pi[4], pi[5], pi[6], pi[7]]);
    let escape = app == 0xFFFF && (prot_type != 3 || rt == u32::MAX);
    if escape {
        return Ok(());
    }
    let at = lba + i;
    if checks.guard && u16::from_be_bytes([pi[0], pi[1]]) != crc16_t10dif(user) {
        return Err(SimSense::new(key::ABORTED_COMMAND, 0x10, 0x01).with_info(at));
    }
    if let (true, Some((want, mask))) = (checks.app, expect.app) {
        if app & mask != want & mask {
            return Err(SimSense::new(key::ABORTED_COMMAND, 0x10, 0x02).with_info(at));
        }
    }
    if checks.reference && prot_type != 3 && rt != expect.ref_tag(lba, i) {
        return Err(SimSense::new(key::ABORTED_COMMAND, 0x10, 0x03).with_info(at));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protect_field_tables() {
        assert_eq!(Checks::for_protect(1), Checks::for_protect(5));
        assert!(!Checks::for_protect(2).guard && Checks::for_protect(2).reference);
        assert_eq!(
            Checks::for_protect(3),
            Checks {
                guard: false,
                app: false,
                reference: false
            }
        );
        assert!(Checks::for_protect(4).guard && !Checks::for_protect(4).reference);
    }

    #[test]
    fn each_tag_has_its_own_sense() {
        let user = [0x5Au8; 512];
        let all = Checks::for_protect(1);
        let e = Expected {
            initial_ref: Some(1000),
            app: Some((0x1234, 0xFF00)),
        };
        let mut pi = generated(2, 1002, &user);
        pi[2..4].copy_from_slice(&0x12AAu16.to_be_bytes()); // masked-off low byte differs
        check_block(2, all, &e, 50, 2, &user, &pi).unwrap();
        let mut bad = pi;
        bad[0] ^= 1;
        let s = check_block(2, all, &e, 50, 2, &user, &bad).unwrap_err();
        assert_eq!((s.key, s.asc, s.ascq, s.info), (0x0B, 0x10, 0x01, Some(52)));
        let mut bad = pi;
        bad[2] = 0x13;
        let s = check_block(2, all, &e, 50, 2, &user, &bad).unwrap_err();
        assert_eq!((s.asc, s.ascq), (0x10, 0x02));
        let s = check_block(2, all, &e, 50, 3, &user, &pi).unwrap_err();
        assert_eq!((s.asc, s.ascq), (0x10, 0x03), "EILBRT + 3 != 1002");
        // 011b checks nothing; the FFFFh escape disables checking.
        check_block(2, Checks::for_protect(3), &e, 50, 3, &user, &bad).unwrap();
        bad[2..4].copy_from_slice(&[0xFF, 0xFF]);
        check_block(2, all, &e, 50, 3, &user, &bad).unwrap();
    }
}
