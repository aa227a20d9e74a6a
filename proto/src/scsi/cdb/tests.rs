//! One test per CDB builder: the bytes each writes, with its defaults and with every setter
//! moved off its default, against the CDB table of the standard named in the test. The
//! expected arrays are written out from the tables (field by field), not computed.

use crate::scsi::ata_pass_through::{AtaCommand, Protocol};
use crate::scsi::diagnostic::ReceiveDiagnosticResultsCdb;
use crate::scsi::format_unit::{FormatUnitCdb, FormatWithPresetCdb};
use crate::scsi::inquiry::InquiryCdb;
use crate::scsi::log_select::LogSelectCdb;
use crate::scsi::log_sense::{LogSenseCdb, PageControl as LogPc};
use crate::scsi::mode::{
    ModeSelect10Cdb, ModeSelect6Cdb, ModeSense10Cdb, ModeSense6Cdb, PageControl as ModePc,
};
use crate::scsi::persistent_reserve::{InServiceAction, PersistentReserveInCdb};
use crate::scsi::read_capacity::{ReadCapacity10Cdb, ReadCapacity16Cdb};
use crate::scsi::read_defect::{DefectFormat, ReadDefectData10Cdb, ReadDefectData12Cdb};
use crate::scsi::read_write::{
    Read10Cdb, Read16Cdb, Read32Cdb, Write10Cdb, Write16Cdb, Write32Cdb,
};
use crate::scsi::reassign::ReassignBlocksCdb;
use crate::scsi::report_luns::ReportLunsCdb;
use crate::scsi::request_sense::RequestSenseCdb;
use crate::scsi::rsoc::{ReportSupportedOpcodesCdb, ReportingOptions};
use crate::scsi::sanitize::{SanitizeCdb, ServiceAction};
use crate::scsi::security_protocol::{Inc512, SecurityProtocolInCdb, SecurityProtocolOutCdb};
use crate::scsi::send_diagnostic::SendDiagnosticCdb;
use crate::scsi::start_stop::{PowerRequest, StartStopUnitCdb};
use crate::scsi::tur::TestUnitReadyCdb;
use crate::scsi::write_buffer::{Mode, ReadBufferCdb, WriteBufferCdb};

/// SPC-6 6.47 Table "TEST UNIT READY command": 00h, four reserved bytes, CONTROL.
#[test]
fn test_unit_ready() {
    assert_eq!(TestUnitReadyCdb::OPCODE, 0x00);
    assert_eq!(TestUnitReadyCdb::new().build(), [0x00, 0, 0, 0, 0, 0]);
}

/// SPC-6 6.7.1 Table "INQUIRY command": 12h; byte 1 bit 0 EVPD; byte 2 PAGE CODE; bytes 3-4
/// ALLOCATION LENGTH (MSB first); byte 5 CONTROL.
#[test]
fn inquiry() {
    assert_eq!(InquiryCdb::OPCODE, 0x12);
    assert_eq!(
        InquiryCdb::new(36).build(),
        [0x12, 0x00, 0x00, 0x00, 0x24, 0x00]
    );
    assert_eq!(
        InquiryCdb::new(0x0200).evpd(true).page_code(0xB1).build(),
        [0x12, 0x01, 0xB1, 0x02, 0x00, 0x00]
    );
}

/// SPC-6 6.39 Table "REQUEST SENSE command": 03h; byte 1 bit 0 DESC; bytes 2-3 reserved;
/// byte 4 ALLOCATION LENGTH; byte 5 CONTROL.
#[test]
fn request_sense() {
    assert_eq!(RequestSenseCdb::OPCODE, 0x03);
    assert_eq!(RequestSenseCdb::new(18).build(), [0x03, 0, 0, 0, 0x12, 0]);
    assert_eq!(
        RequestSenseCdb::new(252).desc(true).build(),
        [0x03, 0x01, 0, 0, 0xFC, 0]
    );
}

/// SPC-6 6.35.1 Table "REPORT LUNS command": A0h; byte 2 SELECT REPORT; bytes 6-9
/// ALLOCATION LENGTH; byte 11 CONTROL.
#[test]
fn report_luns() {
    assert_eq!(ReportLunsCdb::OPCODE, 0xA0);
    assert_eq!(
        ReportLunsCdb::new(16).build(),
        [0xA0, 0, 0x00, 0, 0, 0, 0x00, 0x00, 0x00, 0x10, 0, 0]
    );
    assert_eq!(
        ReportLunsCdb::new(0x0001_0010).select_report(0x02).build(),
        [0xA0, 0, 0x02, 0, 0, 0, 0x00, 0x01, 0x00, 0x10, 0, 0]
    );
}

/// SPC-6 6.33 Table "RECEIVE DIAGNOSTIC RESULTS command": 1Ch; byte 1 bit 0 PCV; byte 2
/// PAGE CODE; bytes 3-4 ALLOCATION LENGTH; byte 5 CONTROL.
#[test]
fn receive_diagnostic_results() {
    assert_eq!(ReceiveDiagnosticResultsCdb::OPCODE, 0x1C);
    assert_eq!(
        ReceiveDiagnosticResultsCdb::new(0x0040).build(),
        [0x1C, 0x00, 0x00, 0x00, 0x40, 0x00]
    );
    assert_eq!(
        ReceiveDiagnosticResultsCdb::new(0x1000)
            .pcv(true)
            .page_code(0x02)
            .build(),
        [0x1C, 0x01, 0x02, 0x10, 0x00, 0x00]
    );
}

/// SPC-6 6.42 Table "SEND DIAGNOSTIC command": 1Dh; byte 1 SELF-TEST CODE (7-5), PF (4),
/// SELFTEST (2), DEVOFFL (1), UNITOFFL (0); bytes 3-4 PARAMETER LIST LENGTH; byte 5 CONTROL.
#[test]
fn send_diagnostic() {
    assert_eq!(SendDiagnosticCdb::OPCODE, 0x1D);
    assert_eq!(SendDiagnosticCdb::new().build(), [0x1D, 0, 0, 0, 0, 0]);
    // 110b foreground extended self-test.
    assert_eq!(
        SendDiagnosticCdb::new().self_test_code(0b110).build(),
        [0x1D, 0xC0, 0, 0, 0, 0]
    );
    // A SES control page of 0104h bytes.
    assert_eq!(
        SendDiagnosticCdb::new()
            .pf(true)
            .parameter_list_length(0x0104)
            .build(),
        [0x1D, 0x10, 0, 0x01, 0x04, 0]
    );
    assert_eq!(
        SendDiagnosticCdb::new()
            .selftest(true)
            .devoffl(true)
            .unitoffl(true)
            .build(),
        [0x1D, 0x07, 0, 0, 0, 0]
    );
}

/// SBC-4 5.20.1 Table "READ CAPACITY (10) command": 25h, LBA and PMI obsolete, CONTROL.
#[test]
fn read_capacity_10() {
    assert_eq!(ReadCapacity10Cdb::OPCODE, 0x25);
    assert_eq!(
        ReadCapacity10Cdb::new().build(),
        [0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    );
}

/// SBC-4 5.21.1 Table "READ CAPACITY (16) command": 9Eh; byte 1 SERVICE ACTION 10h; bytes
/// 10-13 ALLOCATION LENGTH; byte 15 CONTROL.
#[test]
fn read_capacity_16() {
    assert_eq!(ReadCapacity16Cdb::OPCODE, 0x9E);
    assert_eq!(ReadCapacity16Cdb::SERVICE_ACTION, 0x10);
    assert_eq!(
        ReadCapacity16Cdb::new(0x0000_0020).build(),
        [0x9E, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x20, 0, 0]
    );
}

/// SBC-5 5.27 Table "START STOP UNIT command": 1Bh; byte 1 bit 0 IMMED; byte 3 bits 3-0
/// POWER CONDITION MODIFIER; byte 4 POWER CONDITION (7-4), NO_FLUSH (2), LOEJ (1), START
/// (0); byte 5 CONTROL.
#[test]
fn start_stop_unit() {
    assert_eq!(StartStopUnitCdb::OPCODE, 0x1B);
    assert_eq!(
        StartStopUnitCdb::new(PowerRequest::Start).build(),
        [0x1B, 0x00, 0, 0x00, 0x01, 0]
    );
    // STANDBY (3h) with modifier 1 (standby_y), IMMED and NO_FLUSH.
    assert_eq!(
        StartStopUnitCdb::new(PowerRequest::Standby(1))
            .immed(true)
            .no_flush(true)
            .build(),
        [0x1B, 0x01, 0, 0x01, 0x34, 0]
    );
    assert_eq!(
        StartStopUnitCdb::new(PowerRequest::Stop).loej(true).build(),
        [0x1B, 0x00, 0, 0x00, 0x02, 0]
    );
}

/// SPC-5 6.16.1 Table "PERSISTENT RESERVE IN command": 5Eh; byte 1 SERVICE ACTION (4-0);
/// bytes 7-8 ALLOCATION LENGTH; byte 9 CONTROL.
#[test]
fn persistent_reserve_in() {
    assert_eq!(PersistentReserveInCdb::OPCODE, 0x5E);
    assert_eq!(
        PersistentReserveInCdb::new(InServiceAction::ReadReservation, 0x2000).build(),
        [0x5E, 0x01, 0, 0, 0, 0, 0, 0x20, 0x00, 0]
    );
}

/// SPC-6 6.36.1 Table "REPORT SUPPORTED OPERATION CODES command": A3h; byte 1 SERVICE
/// ACTION 0Ch; byte 2 RCTD (7), REPORTING OPTIONS (2-0); byte 3 REQUESTED OPERATION CODE;
/// bytes 4-5 REQUESTED SERVICE ACTION; bytes 6-9 ALLOCATION LENGTH; byte 11 CONTROL.
#[test]
fn report_supported_operation_codes() {
    assert_eq!(ReportSupportedOpcodesCdb::OPCODE, 0xA3);
    assert_eq!(ReportSupportedOpcodesCdb::SERVICE_ACTION, 0x0C);
    assert_eq!(
        ReportSupportedOpcodesCdb::new(0x2000).build(),
        [0xA3, 0x0C, 0x00, 0x00, 0, 0, 0x00, 0x00, 0x20, 0x00, 0, 0]
    );
    assert_eq!(
        ReportSupportedOpcodesCdb::new(0x1000)
            .options(ReportingOptions::OpCodeMaybeSa(0x9E, 0x10))
            .rctd(true)
            .build(),
        [0xA3, 0x0C, 0x83, 0x9E, 0x00, 0x10, 0x00, 0x00, 0x10, 0x00, 0, 0]
    );
}

/// SPC-5 6.40 Table "SECURITY PROTOCOL IN command": A2h; byte 1 SECURITY PROTOCOL; bytes
/// 2-3 SECURITY PROTOCOL SPECIFIC; byte 4 bit 7 INC_512; bytes 6-9 ALLOCATION LENGTH;
/// byte 11 CONTROL.
#[test]
fn security_protocol_in() {
    assert_eq!(SecurityProtocolInCdb::OPCODE, 0xA2);
    assert_eq!(
        SecurityProtocolInCdb::new(0x00, 0x0000, 512)
            .build()
            .unwrap(),
        [0xA2, 0x00, 0x00, 0x00, 0x00, 0, 0x00, 0x00, 0x02, 0x00, 0, 0]
    );
    // INC_512: 2048 bytes are 4 units.
    assert_eq!(
        SecurityProtocolInCdb::new(0x01, 0x0001, 2048)
            .inc_512(Inc512::Blocks)
            .build()
            .unwrap(),
        [0xA2, 0x01, 0x00, 0x01, 0x80, 0, 0x00, 0x00, 0x00, 0x04, 0, 0]
    );
    assert!(SecurityProtocolInCdb::new(0x01, 0x0001, 100)
        .inc_512(Inc512::Blocks)
        .build()
        .is_err());
}

/// SPC-5 6.41 Table "SECURITY PROTOCOL OUT command": B5h, the fields of SECURITY PROTOCOL
/// IN with TRANSFER LENGTH in bytes 6-9.
#[test]
fn security_protocol_out() {
    assert_eq!(SecurityProtocolOutCdb::OPCODE, 0xB5);
    assert_eq!(
        SecurityProtocolOutCdb::new(0x02, 0x07FE, 512)
            .build()
            .unwrap(),
        [0xB5, 0x02, 0x07, 0xFE, 0x00, 0, 0x00, 0x00, 0x02, 0x00, 0, 0]
    );
    assert_eq!(
        SecurityProtocolOutCdb::new(0x01, 0x1000, 1024)
            .inc_512(Inc512::Blocks)
            .build()
            .unwrap(),
        [0xB5, 0x01, 0x10, 0x00, 0x80, 0, 0x00, 0x00, 0x00, 0x02, 0, 0]
    );
}

/// SBC-5 5.33 Table "REASSIGN BLOCKS command": 07h; byte 1 LONGLBA (1), LONGLIST (0).
#[test]
fn reassign_blocks() {
    assert_eq!(ReassignBlocksCdb::OPCODE, 0x07);
    assert_eq!(ReassignBlocksCdb::new().build(), [0x07, 0, 0, 0, 0, 0]);
    assert_eq!(
        ReassignBlocksCdb::new()
            .longlba(true)
            .longlist(true)
            .build(),
        [0x07, 0x03, 0, 0, 0, 0]
    );
}

/// SPC-6 6.50 Table "WRITE BUFFER command": 3Bh; byte 1 MODE SPECIFIC (7-5), MODE (4-0);
/// byte 2 BUFFER ID; bytes 3-5 BUFFER OFFSET; bytes 6-8 PARAMETER LIST LENGTH; byte 9
/// CONTROL.
#[test]
fn write_buffer() {
    assert_eq!(WriteBufferCdb::OPCODE, 0x3B);
    assert_eq!(
        WriteBufferCdb::new(Mode::Save, 0x01_2345).build().unwrap(),
        [0x3B, 0x05, 0x00, 0x00, 0x00, 0x00, 0x01, 0x23, 0x45, 0]
    );
    // Mode 0Dh with PO_ACT (MODE SPECIFIC 100b), buffer 2, offset 010000h, 8000h bytes.
    assert_eq!(
        WriteBufferCdb::new(Mode::OffsetsEventsDefer, 0x00_8000)
            .mode_specific(0b100)
            .buffer_id(0x02)
            .offset(0x01_0000)
            .build()
            .unwrap(),
        [0x3B, 0x8D, 0x02, 0x01, 0x00, 0x00, 0x00, 0x80, 0x00, 0]
    );
    assert!(WriteBufferCdb::new(Mode::Save, 0x0100_0000)
        .build()
        .is_err());
}

/// SPC-6 6.17 Table "READ BUFFER (10) command": 3Ch; byte 1 MODE (4-0); byte 2 BUFFER ID;
/// bytes 3-5 BUFFER OFFSET; bytes 6-8 ALLOCATION LENGTH; byte 9 CONTROL.
#[test]
fn read_buffer_10() {
    assert_eq!(ReadBufferCdb::OPCODE, 0x3C);
    assert_eq!(
        ReadBufferCdb::new(0x03, 4).build().unwrap(),
        [0x3C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0]
    );
    assert_eq!(
        ReadBufferCdb::new(0x02, 0x00_1000)
            .buffer_id(0x01)
            .offset(0x00_0200)
            .build()
            .unwrap(),
        [0x3C, 0x02, 0x01, 0x00, 0x02, 0x00, 0x00, 0x10, 0x00, 0]
    );
    assert!(ReadBufferCdb::new(0x02, 4)
        .offset(0x0100_0000)
        .build()
        .is_err());
}

/// SPC-6 6.13 Table "MODE SENSE (6) command": 1Ah; byte 1 bit 3 DBD; byte 2 PC (7-6), PAGE
/// CODE (5-0); byte 3 SUBPAGE CODE; byte 4 ALLOCATION LENGTH; byte 5 CONTROL.
#[test]
fn mode_sense_6() {
    assert_eq!(ModeSense6Cdb::OPCODE, 0x1A);
    assert_eq!(
        ModeSense6Cdb::new(0x08, 0xFC).build(),
        [0x1A, 0x00, 0x08, 0x00, 0xFC, 0]
    );
    assert_eq!(
        ModeSense6Cdb::new(0x3F, 0xFF)
            .subpage_code(0xFF)
            .pc(ModePc::Saved)
            .dbd(true)
            .build(),
        [0x1A, 0x08, 0xFF, 0xFF, 0xFF, 0]
    );
}

/// SPC-6 6.14 Table "MODE SENSE (10) command": 5Ah; byte 1 LLBAA (4), DBD (3); byte 2 PC
/// (7-6), PAGE CODE (5-0); byte 3 SUBPAGE CODE; bytes 7-8 ALLOCATION LENGTH; byte 9 CONTROL.
#[test]
fn mode_sense_10() {
    assert_eq!(ModeSense10Cdb::OPCODE, 0x5A);
    assert_eq!(
        ModeSense10Cdb::new(0x01, 0x00FC).build(),
        [0x5A, 0x00, 0x01, 0x00, 0, 0, 0, 0x00, 0xFC, 0]
    );
    assert_eq!(
        ModeSense10Cdb::new(0x19, 0x1000)
            .subpage_code(0x01)
            .pc(ModePc::Changeable)
            .dbd(true)
            .llbaa(true)
            .build(),
        [0x5A, 0x18, 0x59, 0x01, 0, 0, 0, 0x10, 0x00, 0]
    );
}

/// SPC-6 6.11 Table "MODE SELECT (6) command": 15h; byte 1 PF (4), SP (0); byte 4 PARAMETER
/// LIST LENGTH; byte 5 CONTROL.
#[test]
fn mode_select_6() {
    assert_eq!(ModeSelect6Cdb::OPCODE, 0x15);
    assert_eq!(
        ModeSelect6Cdb::new(0x0C).build(),
        [0x15, 0x00, 0, 0, 0x0C, 0]
    );
    assert_eq!(
        ModeSelect6Cdb::new(0x1C).pf(true).sp(true).build(),
        [0x15, 0x11, 0, 0, 0x1C, 0]
    );
}

/// SPC-6 6.12 Table "MODE SELECT (10) command": 55h; byte 1 PF (4), SP (0); bytes 7-8
/// PARAMETER LIST LENGTH; byte 9 CONTROL.
#[test]
fn mode_select_10() {
    assert_eq!(ModeSelect10Cdb::OPCODE, 0x55);
    assert_eq!(
        ModeSelect10Cdb::new(0x0018).build(),
        [0x55, 0x00, 0, 0, 0, 0, 0, 0x00, 0x18, 0]
    );
    assert_eq!(
        ModeSelect10Cdb::new(0x0118).pf(true).sp(true).build(),
        [0x55, 0x11, 0, 0, 0, 0, 0, 0x01, 0x18, 0]
    );
}

/// SBC-5 5.20 Table "READ DEFECT DATA (10) command": 37h; byte 2 REQ_PLIST (4), REQ_GLIST
/// (3), DEFECT LIST FORMAT (2-0); bytes 7-8 ALLOCATION LENGTH; byte 9 CONTROL.
#[test]
fn read_defect_data_10() {
    assert_eq!(ReadDefectData10Cdb::OPCODE, 0x37);
    assert_eq!(
        ReadDefectData10Cdb::new(DefectFormat::ShortBlock, 4).build(),
        [0x37, 0, 0x00, 0, 0, 0, 0, 0x00, 0x04, 0]
    );
    assert_eq!(
        ReadDefectData10Cdb::new(DefectFormat::LongBlock, 0x0200)
            .plist(true)
            .glist(true)
            .build(),
        [0x37, 0, 0x1B, 0, 0, 0, 0, 0x02, 0x00, 0]
    );
}

/// SBC-5 5.21 Table "READ DEFECT DATA (12) command": B7h; byte 1 REQ_PLIST (4), REQ_GLIST
/// (3), DEFECT LIST FORMAT (2-0); bytes 2-5 ADDRESS DESCRIPTOR INDEX; bytes 6-9 ALLOCATION
/// LENGTH; byte 11 CONTROL.
#[test]
fn read_defect_data_12() {
    assert_eq!(ReadDefectData12Cdb::OPCODE, 0xB7);
    assert_eq!(
        ReadDefectData12Cdb::new(DefectFormat::ShortBlock, 8).build(),
        [0xB7, 0x00, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x08, 0, 0]
    );
    assert_eq!(
        ReadDefectData12Cdb::new(DefectFormat::BytesFromIndex, 0x0002_0000)
            .plist(true)
            .glist(true)
            .address_descriptor_index(0x0000_0100)
            .build(),
        [0xB7, 0x1C, 0x00, 0x00, 0x01, 0x00, 0x00, 0x02, 0x00, 0x00, 0, 0]
    );
}

/// SPC-5 6.6 Table "LOG SENSE command": 4Dh; byte 1 PPC (1), SP (0); byte 2 PC (7-6), PAGE
/// CODE (5-0); byte 3 SUBPAGE CODE; bytes 5-6 PARAMETER POINTER; bytes 7-8 ALLOCATION
/// LENGTH; byte 9 CONTROL. The default PC is 01b (cumulative values).
#[test]
fn log_sense() {
    assert_eq!(LogSenseCdb::OPCODE, 0x4D);
    assert_eq!(
        LogSenseCdb::new(0x10, 0x0400).build(),
        [0x4D, 0x00, 0x50, 0x00, 0, 0x00, 0x00, 0x04, 0x00, 0]
    );
    assert_eq!(
        LogSenseCdb::new(0x10, 0x0400)
            .subpage_code(0xFF)
            .pc(LogPc::Threshold)
            .parameter_pointer(0x0002)
            .sp(true)
            .ppc(true)
            .build(),
        [0x4D, 0x03, 0x10, 0xFF, 0, 0x00, 0x02, 0x04, 0x00, 0]
    );
}

/// SPC-5 6.5 Table "LOG SELECT command": 4Ch; byte 1 PCR (1), SP (0); byte 2 PC (7-6), PAGE
/// CODE (5-0); byte 3 SUBPAGE CODE; bytes 7-8 PARAMETER LIST LENGTH; byte 9 CONTROL.
#[test]
fn log_select() {
    assert_eq!(LogSelectCdb::OPCODE, 0x4C);
    assert_eq!(
        LogSelectCdb::new(LogPc::Cumulative).build(),
        [0x4C, 0x00, 0x40, 0x00, 0, 0, 0, 0x00, 0x00, 0]
    );
    assert_eq!(
        LogSelectCdb::new(LogPc::DefaultThreshold)
            .pcr(true)
            .sp(true)
            .page_code(0x0D)
            .subpage_code(0x01)
            .parameter_list_length(0x0010)
            .build(),
        [0x4C, 0x03, 0x8D, 0x01, 0, 0, 0, 0x00, 0x10, 0]
    );
}

/// SBC-4 5.31.1 Table 169 "SANITIZE command": 48h; byte 1 IMMED (7), ZNR (6), AUSE (5),
/// SERVICE ACTION (4-0); bytes 7-8 PARAMETER LIST LENGTH; byte 9 CONTROL.
#[test]
fn sanitize() {
    assert_eq!(SanitizeCdb::OPCODE, 0x48);
    assert_eq!(
        SanitizeCdb::new(ServiceAction::CryptoErase).build(),
        [0x48, 0x03, 0, 0, 0, 0, 0, 0x00, 0x00, 0]
    );
    assert_eq!(
        SanitizeCdb::new(ServiceAction::Overwrite)
            .immed(true)
            .znr(true)
            .ause(true)
            .parameter_list_length(0x0008)
            .build(),
        [0x48, 0xE1, 0, 0, 0, 0, 0, 0x00, 0x08, 0]
    );
}

/// SBC-4 5.3.1 Table 38 "FORMAT UNIT command": 04h; byte 1 FMTPINFO (7-6), LONGLIST (5),
/// FMTDATA (4), CMPLST (3), DEFECT LIST FORMAT (2-0); byte 4 FFMT (1-0); byte 5 CONTROL.
#[test]
fn format_unit() {
    assert_eq!(FormatUnitCdb::OPCODE, 0x04);
    assert_eq!(FormatUnitCdb::new().build(), [0x04, 0x00, 0, 0, 0x00, 0]);
    assert_eq!(
        FormatUnitCdb::new()
            .fmtpinfo(0b11)
            .longlist(true)
            .fmtdata(true)
            .cmplst(true)
            .defect_list_format(0b101)
            .ffmt(0b01)
            .build(),
        [0x04, 0xFD, 0, 0, 0x01, 0]
    );
}

/// SBC-5 5.9 Table "FORMAT WITH PRESET command": 38h; byte 1 IMMED (7), FMTMAXLBA (6);
/// bytes 2-5 PRESET IDENTIFIER; byte 9 CONTROL.
#[test]
fn format_with_preset() {
    assert_eq!(FormatWithPresetCdb::OPCODE, 0x38);
    assert_eq!(
        FormatWithPresetCdb::new(1).build(),
        [0x38, 0x00, 0x00, 0x00, 0x00, 0x01, 0, 0, 0, 0]
    );
    assert_eq!(
        FormatWithPresetCdb::new(0xA1B2_C3D4)
            .immed(true)
            .fmtmaxlba(true)
            .build(),
        [0x38, 0xC0, 0xA1, 0xB2, 0xC3, 0xD4, 0, 0, 0, 0]
    );
}

/// SBC-4 5.16 Table 75 "READ (10) command": 28h; byte 1 RDPROTECT (7-5), DPO (4), FUA (3);
/// bytes 2-5 LBA; byte 6 GROUP NUMBER (4-0); bytes 7-8 TRANSFER LENGTH; byte 9 CONTROL.
/// SBC-4 5.40 Table 102 "WRITE (10) command": the same with 2Ah and WRPROTECT.
#[test]
fn read_write_10() {
    assert_eq!(Read10Cdb::OPCODE, 0x28);
    assert_eq!(Write10Cdb::OPCODE, 0x2A);
    assert_eq!(
        Read10Cdb::new(0x0102_0304, 0x0506).build(),
        [0x28, 0x00, 0x01, 0x02, 0x03, 0x04, 0x00, 0x05, 0x06, 0]
    );
    assert_eq!(
        Read10Cdb::new(0x0102_0304, 0x0506)
            .protect(3)
            .dpo(true)
            .fua(true)
            .group(0x1F)
            .build(),
        [0x28, 0x78, 0x01, 0x02, 0x03, 0x04, 0x1F, 0x05, 0x06, 0]
    );
    assert_eq!(
        Write10Cdb::new(0xFFFF_FFFF, 1).protect(1).fua(true).build(),
        [0x2A, 0x28, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x01, 0]
    );
}

/// SBC-4 5.17 Table 77 "READ (16) command": 88h; byte 1 RDPROTECT (7-5), DPO (4), FUA (3);
/// bytes 2-9 LBA; bytes 10-13 TRANSFER LENGTH; byte 14 GROUP NUMBER (5-0); byte 15 CONTROL.
/// SBC-4 5.41 Table 104 "WRITE (16) command": the same with 8Ah and WRPROTECT.
#[test]
fn read_write_16() {
    assert_eq!(Read16Cdb::OPCODE, 0x88);
    assert_eq!(Write16Cdb::OPCODE, 0x8A);
    assert_eq!(
        Read16Cdb::new(0x0102_0304_0506_0708, 0x090A_0B0C)
            .fua(true)
            .group(0x3F)
            .build(),
        [
            0x88, 0x08, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C,
            0x3F, 0
        ]
    );
    assert_eq!(
        Write16Cdb::new(0x10, 8).protect(2).dpo(true).build(),
        [0x8A, 0x50, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0x08, 0x00, 0]
    );
}

/// SBC-4 5.18 Table 80 "READ (32) command" / 5.43 Table 107 "WRITE (32) command": 7Fh;
/// byte 6 GROUP NUMBER (4-0); byte 7 ADDITIONAL CDB LENGTH 18h; bytes 8-9 SERVICE ACTION
/// (0009h / 000Bh); byte 10 RDPROTECT/WRPROTECT (7-5), DPO (4), FUA (3); bytes 12-19 LBA;
/// bytes 20-23 EXPECTED INITIAL LOGICAL BLOCK REFERENCE TAG; bytes 24-25 EXPECTED LOGICAL
/// BLOCK APPLICATION TAG; bytes 26-27 LOGICAL BLOCK APPLICATION TAG MASK; bytes 28-31
/// TRANSFER LENGTH.
#[test]
fn read_write_32() {
    assert_eq!(
        (Read32Cdb::OPCODE, Read32Cdb::SERVICE_ACTION),
        (0x7F, 0x0009)
    );
    assert_eq!(
        (Write32Cdb::OPCODE, Write32Cdb::SERVICE_ACTION),
        (0x7F, 0x000B)
    );
    // Default reference tag: the low 32 bits of the LBA.
    assert_eq!(
        Read32Cdb::new(0x0000_0001_0000_0010, 8).build(),
        [
            0x7F, 0, 0, 0, 0, 0, 0x00, 0x18, 0x00, 0x09, 0x00, 0, //
            0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10, //
            0x00, 0x00, 0x00, 0x10, 0, 0, 0, 0, //
            0x00, 0x00, 0x00, 0x08,
        ]
    );
    assert_eq!(
        Write32Cdb::new(0x10, 8)
            .protect(1)
            .fua(true)
            .group(0x02)
            .expected_ref_tag(0xCAFE_BABE)
            .build(),
        [
            0x7F, 0, 0, 0, 0, 0, 0x02, 0x18, 0x00, 0x0B, 0x28, 0, //
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, //
            0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 0, //
            0x00, 0x00, 0x00, 0x08,
        ]
    );
}

/// SAT-4 12.2.2 ATA PASS-THROUGH: (12) Table 194 A1h; (16) Table 195 85h; byte 1 PROTOCOL
/// (4-1), EXTEND (0); byte 2 OFF_LINE (7-6), CK_COND (5), T_TYPE (4), T_DIR (3), BYT_BLOK
/// (2), T_LENGTH (1-0). (16): FEATURES 15:8 / 7:0 in bytes 3-4, COUNT 15:8 / 7:0 in 5-6,
/// LBA 31:24, 7:0, 39:32, 15:8, 47:40, 23:16 in bytes 7-12, DEVICE 13, COMMAND 14.
#[test]
fn ata_pass_through() {
    assert_eq!(AtaCommand::OPCODE_12, 0xA1);
    assert_eq!(AtaCommand::OPCODE_16, 0x85);
    assert_eq!(AtaCommand::OPCODE_32, 0x7F);
    assert_eq!(AtaCommand::SERVICE_ACTION_32, 0x1FF0);
    // IDENTIFY DEVICE (ECh), PIO Data-In (4), one 512-byte block: what smartctl sends.
    let identify = AtaCommand::new(0xEC, Protocol::PioDataIn).count(1);
    assert_eq!(
        identify.cdb16(),
        [0x85, 0x08, 0x0E, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0x00, 0xEC, 0]
    );
    assert_eq!(
        identify.cdb12().unwrap(),
        [0xA1, 0x08, 0x0E, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0xEC, 0, 0]
    );
    // READ LOG EXT (2Fh), 48-bit, CK_COND, every register field distinct.
    let c = AtaCommand::new(0x2F, Protocol::PioDataIn)
        .extend(true)
        .ck_cond(true)
        .features(0x0102)
        .count(0x0304)
        .lba(0x0A0B_0C0D_0E0F)
        .device(0x40);
    assert_eq!(
        c.cdb16(),
        [
            0x85, 0x09, 0x2E, 0x01, 0x02, 0x03, 0x04, 0x0C, 0x0F, 0x0B, 0x0E, 0x0A, 0x0D, 0x40,
            0x2F, 0
        ]
    );
    assert!(c.cdb12().is_err());
    let c32 = c.cdb32();
    assert_eq!(
        &c32[..12],
        &[0x7F, 0, 0, 0, 0, 0, 0, 0x18, 0x1F, 0xF0, 0x09, 0x2E]
    );
    assert_eq!(
        &c32[12..27],
        &[0, 0, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x01, 0x02, 0x03, 0x04, 0, 0x40, 0x2F]
    );
}
