//! SBC-5 5.27 START STOP UNIT (0x1B): byte 1 bit 0 IMMED; byte 3 bits 3-0 POWER CONDITION
//! MODIFIER; byte 4 bits 7-4 POWER CONDITION, bit 2 NO_FLUSH, bit 1 LOEJ, bit 0 START.
//!
//! POWER CONDITION (SBC-5 Table "POWER CONDITION and POWER CONDITION MODIFIER field"): 0h
//! START_VALID (START says start or stop), 1h ACTIVE, 2h IDLE (modifier 0 idle_a, 1 idle_b,
//! 2 idle_c), 3h STANDBY (modifier 0 standby_z, 1 standby_y), 7h LU_CONTROL (the timers of
//! the Power Condition mode page take over), Ah FORCE_IDLE_0, Bh FORCE_STANDBY_0.

use serde::Serialize;

/// START STOP UNIT operation code.
pub const OPCODE: u8 = 0x1b;

/// What to ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PowerRequest {
    /// START_VALID with START=1: spin up / make ready.
    Start,
    /// START_VALID with START=0: stop (the drive serves no medium access until started).
    Stop,
    /// ACTIVE.
    Active,
    /// IDLE with modifier 0 (idle_a), 1 (idle_b), 2 (idle_c).
    Idle(u8),
    /// STANDBY with modifier 0 (standby_z), 1 (standby_y).
    Standby(u8),
    /// LU_CONTROL: back to the Power Condition mode page's timers.
    LuControl,
}

impl PowerRequest {
    /// (POWER CONDITION, MODIFIER, START).
    pub fn fields(self) -> (u8, u8, bool) {
        match self {
            PowerRequest::Start => (0, 0, true),
            PowerRequest::Stop => (0, 0, false),
            PowerRequest::Active => (1, 0, false),
            PowerRequest::Idle(m) => (2, m & 0x0f, false),
            PowerRequest::Standby(m) => (3, m & 0x0f, false),
            PowerRequest::LuControl => (7, 0, false),
        }
    }

    /// Name for messages.
    pub fn name(self) -> &'static str {
        match self {
            PowerRequest::Start => "start",
            PowerRequest::Stop => "stop",
            PowerRequest::Active => "active",
            PowerRequest::Idle(0) => "idle_a",
            PowerRequest::Idle(1) => "idle_b",
            PowerRequest::Idle(_) => "idle_c",
            PowerRequest::Standby(0) => "standby_z",
            PowerRequest::Standby(_) => "standby_y",
            PowerRequest::LuControl => "lu_control",
        }
    }
}

crate::scsi::cdb::cdb_builder! {
    /// SBC-5 5.27 START STOP UNIT CDB (6 bytes).
    #[doc(alias = "sg_ll_start_stop_unit")]
    pub struct StartStopUnitCdb {
        /// POWER CONDITION, POWER CONDITION MODIFIER and START (bytes 3-4).
        request: PowerRequest,
        ;;
        /// IMMED, byte 1 bit 0: return before the operation completes.
        immed: bool = false,
        /// NO_FLUSH, byte 4 bit 2: do not write the cache before a power condition change.
        no_flush: bool = false,
        /// LOEJ, byte 4 bit 1: load/eject the medium with START.
        loej: bool = false,
    }
}

impl StartStopUnitCdb {
    /// START STOP UNIT operation code.
    pub const OPCODE: u8 = OPCODE;

    /// The 6 CDB bytes.
    pub fn build(&self) -> [u8; 6] {
        let (pc, m, start) = self.request.fields();
        [
            OPCODE,
            u8::from(self.immed),
            0,
            m,
            (pc << 4)
                | (u8::from(self.no_flush) << 2)
                | (u8::from(self.loej) << 1)
                | u8::from(start),
            0,
        ]
    }
}

/// The power condition REQUEST SENSE reports (SPC-6 ASC 5Eh, and 04/02 for a stopped unit):
/// None when the sense data says nothing about it.
pub fn power_state_from_sense(asc: u8, ascq: u8) -> Option<&'static str> {
    Some(match (asc, ascq) {
        (0x04, 0x02) => "stopped (initializing command required)",
        (0x5e, 0x00) => "low power condition on",
        (0x5e, 0x01) => "idle (by timer)",
        (0x5e, 0x02) => "standby (by timer)",
        (0x5e, 0x03) => "idle (by command)",
        (0x5e, 0x04) => "standby (by command)",
        (0x5e, 0x05) => "idle_b (by timer)",
        (0x5e, 0x06) => "idle_b (by command)",
        (0x5e, 0x07) => "idle_c (by timer)",
        (0x5e, 0x08) => "idle_c (by command)",
        (0x5e, 0x09) => "standby_y (by timer)",
        (0x5e, 0x0a) => "standby_y (by command)",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SBC-5 START STOP UNIT CDB table and the POWER CONDITION table.
    #[test]
    fn cdbs_from_the_table() {
        assert_eq!(
            StartStopUnitCdb::new(PowerRequest::Start).build(),
            [0x1b, 0, 0, 0, 0x01, 0]
        );
        assert_eq!(
            StartStopUnitCdb::new(PowerRequest::Stop)
                .immed(true)
                .build(),
            [0x1b, 1, 0, 0, 0x00, 0]
        );
        assert_eq!(
            StartStopUnitCdb::new(PowerRequest::Active).build(),
            [0x1b, 0, 0, 0, 0x10, 0]
        );
        assert_eq!(
            StartStopUnitCdb::new(PowerRequest::Idle(1)).build(),
            [0x1b, 0, 0, 1, 0x20, 0]
        );
        assert_eq!(
            StartStopUnitCdb::new(PowerRequest::Standby(0)).build(),
            [0x1b, 0, 0, 0, 0x30, 0]
        );
        assert_eq!(
            StartStopUnitCdb::new(PowerRequest::LuControl).build(),
            [0x1b, 0, 0, 0, 0x70, 0]
        );
        assert_eq!(
            power_state_from_sense(0x5e, 0x04),
            Some("standby (by command)")
        );
        assert_eq!(power_state_from_sense(0, 0), None);
    }
}
