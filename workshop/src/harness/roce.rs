//! RoCE v2 framing of the NAK headers the core emits, and their decoding by
//! a packet dissector of the ecosystem (scapy, from PyPI).
//!
//! The core builds only the RC Acknowledge header (BTH + AETH, 16 bytes) of
//! a NAK; the transmit side of the NIC puts it on the wire. The test bench
//! plays that part: [`frame_nak`] wraps a header into a complete RoCE v2
//! packet (Ethernet II, IPv4, UDP to port 4791, the header, the ICRC),
//! [`write_pcap`] writes packets to a classic pcap file, and
//! [`dissect_naks`] has scapy's dissectors (`scapy.contrib.roce`) decode
//! them with `workshop/scripts/decode_roce.py`, run by the interpreter of
//! `.tools/venv` (installed by `synth/install-tools.sh`, like every tool).

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Destination MAC address of every framed NAK (locally administered).
pub const DST_MAC: [u8; 6] = [0x02, 0x00, 0x00, 0x00, 0x00, 0x02];
/// Source MAC address of every framed NAK (locally administered).
pub const SRC_MAC: [u8; 6] = [0x02, 0x00, 0x00, 0x00, 0x00, 0x01];
/// Source IPv4 address, 192.0.2.1 (TEST-NET-1, RFC 5737).
pub const SRC_IP: [u8; 4] = [192, 0, 2, 1];
/// Destination IPv4 address, 192.0.2.2 (TEST-NET-1, RFC 5737).
pub const DST_IP: [u8; 4] = [192, 0, 2, 2];
/// UDP source port of every framed NAK.
pub const UDP_SRC_PORT: u16 = 0xc000;
/// The UDP destination port IANA assigns to RoCE v2.
pub const ROCE_V2_PORT: u16 = 4791;
/// IPv4 time to live of every framed NAK.
pub const TTL: u8 = 64;
/// Length of the header the core emits: BTH (12 bytes) + AETH (4 bytes).
pub const NAK_HDR_BYTES: usize = 16;
/// Length of a framed NAK: Ethernet (14), IPv4 (20), UDP (8), the header
/// (16) and the ICRC (4). At least the 60 bytes of a minimum Ethernet frame
/// without its FCS, so no padding follows.
pub const FRAME_BYTES: usize = ETH_BYTES + IPV4_BYTES + UDP_BYTES + NAK_HDR_BYTES + ICRC_BYTES;

const ETH_BYTES: usize = 14;
const IPV4_BYTES: usize = 20;
const UDP_BYTES: usize = 8;
const ICRC_BYTES: usize = 4;

/// The RoCE v2 packet carrying NAK header `hdr` (BTH + AETH in network byte
/// order, byte 0 in `hdr[127:120]`, as on the core's `m_nak_hdr`).
///
/// Ethernet II ([`DST_MAC`], [`SRC_MAC`], ethertype 0x0800); IPv4 (no
/// options, TOS 0, identification 0, DF set, TTL [`TTL`], protocol UDP,
/// header checksum per RFC 791, [`SRC_IP`] to [`DST_IP`]); UDP
/// ([`UDP_SRC_PORT`] to [`ROCE_V2_PORT`], checksum 0, which RoCE v2
/// allows over IPv4); the 16 header bytes; the ICRC ([`icrc`]), least
/// significant byte first. [`FRAME_BYTES`] bytes, without an Ethernet FCS.
pub fn frame_nak(hdr: u128) -> Vec<u8> {
    let ip_len = (IPV4_BYTES + UDP_BYTES + NAK_HDR_BYTES + ICRC_BYTES) as u16;
    let udp_len = (UDP_BYTES + NAK_HDR_BYTES + ICRC_BYTES) as u16;
    let mut f = Vec::with_capacity(FRAME_BYTES);
    f.extend_from_slice(&DST_MAC);
    f.extend_from_slice(&SRC_MAC);
    f.extend_from_slice(&0x0800u16.to_be_bytes());
    let ip = f.len();
    f.extend_from_slice(&[0x45, 0x00]); // version 4, IHL 5; TOS
    f.extend_from_slice(&ip_len.to_be_bytes());
    f.extend_from_slice(&[0x00, 0x00]); // identification
    f.extend_from_slice(&0x4000u16.to_be_bytes()); // DF, fragment offset 0
    f.extend_from_slice(&[TTL, 17]); // TTL; protocol UDP
    f.extend_from_slice(&[0x00, 0x00]); // header checksum, below
    f.extend_from_slice(&SRC_IP);
    f.extend_from_slice(&DST_IP);
    let sum = ipv4_checksum(&f[ip..ip + IPV4_BYTES]);
    f[ip + 10..ip + 12].copy_from_slice(&sum.to_be_bytes());
    f.extend_from_slice(&UDP_SRC_PORT.to_be_bytes());
    f.extend_from_slice(&ROCE_V2_PORT.to_be_bytes());
    f.extend_from_slice(&udp_len.to_be_bytes());
    f.extend_from_slice(&[0x00, 0x00]); // UDP checksum: none
    f.extend_from_slice(&hdr.to_be_bytes());
    let crc = icrc(&f[ip..]);
    f.extend_from_slice(&crc.to_le_bytes());
    debug_assert_eq!(f.len(), FRAME_BYTES);
    f
}

/// The IPv4 header checksum (RFC 791): the ones' complement of the ones'
/// complement sum of the header's 16-bit words, with the checksum field
/// (bytes 10-11) taken as 0.
pub fn ipv4_checksum(header: &[u8]) -> u16 {
    let sum = header
        .chunks(2)
        .enumerate()
        .filter(|&(k, _)| k != 5)
        .map(|(_, w)| u32::from(w[0]) << 8 | u32::from(*w.get(1).unwrap_or(&0)))
        .fold(0u32, |s, w| {
            let s = s + w;
            (s & 0xffff) + (s >> 16)
        });
    !(sum as u16)
}

/// CRC-32 as Ethernet computes it (polynomial 0x04C11DB7 bit-reversed,
/// initial value and final XOR all ones; zlib's `crc32`).
pub fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |mut c, &b| {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xedb8_8320
            } else {
                c >> 1
            };
        }
        c
    })
}

/// The ICRC of a RoCE v2 packet over IPv4 (IBTA Annex A17, as
/// `scapy.contrib.roce.BTH.compute_icrc` computes it): [`crc32`] of 8 bytes
/// of 0xFF (the pseudo-LRH) followed by `ip_packet` (IPv4 header, UDP
/// header, BTH, payload; no ICRC) with the variant fields set to all ones:
/// IPv4 TOS, TTL and header checksum, UDP checksum, and BTH byte 4 (FECN,
/// BECN, resv6a). It goes on the wire least significant byte first.
///
/// `ip_packet` starts with an IPv4 header without options.
pub fn icrc(ip_packet: &[u8]) -> u32 {
    let mut p = ip_packet.to_vec();
    for k in [1, 8, 10, 11] {
        p[k] = 0xff; // TOS, TTL, header checksum
    }
    let udp = IPV4_BYTES;
    p[udp + 6] = 0xff; // UDP checksum
    p[udp + 7] = 0xff;
    p[udp + UDP_BYTES + 4] = 0xff; // BTH FECN / BECN / resv6a
    let mut pseudo = vec![0xff; 8];
    pseudo.extend_from_slice(&p);
    crc32(&pseudo)
}

/// Writes `packets` to a classic pcap file (version 2.4, microsecond
/// timestamps, little-endian, link type 1 Ethernet). Packet `k` is stamped
/// `k` microseconds after the epoch, so the file is the same on every run.
pub fn write_pcap(path: &Path, packets: &[Vec<u8>]) -> std::io::Result<()> {
    let mut out = Vec::new();
    out.extend_from_slice(&0xa1b2_c3d4u32.to_le_bytes()); // magic
    out.extend_from_slice(&2u16.to_le_bytes()); // version 2.4
    out.extend_from_slice(&4u16.to_le_bytes());
    out.extend_from_slice(&0i32.to_le_bytes()); // thiszone
    out.extend_from_slice(&0u32.to_le_bytes()); // sigfigs
    out.extend_from_slice(&65_535u32.to_le_bytes()); // snaplen
    out.extend_from_slice(&1u32.to_le_bytes()); // LINKTYPE_ETHERNET
    for (k, p) in packets.iter().enumerate() {
        let len = u32::try_from(p.len()).expect("packet longer than 4 GiB");
        out.extend_from_slice(&((k / 1_000_000) as u32).to_le_bytes());
        out.extend_from_slice(&((k % 1_000_000) as u32).to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes()); // captured length
        out.extend_from_slice(&len.to_le_bytes()); // length on the wire
        out.extend_from_slice(p);
    }
    std::fs::write(path, out)
}

/// One packet as scapy decodes it (`workshop/scripts/decode_roce.py`).
///
/// Field names follow the IBTA; a field of a layer scapy did not find
/// (`has_*` false) is 0, false or empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct DecodedNak {
    /// Position of the packet in the pcap file.
    pub index: usize,
    /// scapy found a UDP layer.
    pub has_udp: bool,
    /// scapy found a BTH (the UDP destination port is 4791).
    pub has_bth: bool,
    /// scapy found an AETH (the BTH opcode is an Acknowledge).
    pub has_aeth: bool,
    /// IPv4 source address, dotted.
    pub ip_src: String,
    /// IPv4 destination address, dotted.
    pub ip_dst: String,
    /// IPv4 TOS byte.
    pub ip_tos: u8,
    /// IPv4 time to live.
    pub ip_ttl: u8,
    /// IPv4 protocol (17: UDP).
    pub ip_proto: u8,
    /// IPv4 Don't Fragment flag.
    pub ip_df: bool,
    /// The IPv4 header checksums to zero.
    pub ip_chksum_ok: bool,
    /// The IPv4 total length is the length of the IPv4 packet.
    pub ip_len_ok: bool,
    /// UDP source port.
    pub udp_sport: u16,
    /// UDP destination port.
    pub udp_dport: u16,
    /// UDP checksum field.
    pub udp_chksum: u16,
    /// The UDP length is the length of the UDP datagram.
    pub udp_len_ok: bool,
    /// BTH OpCode.
    pub opcode: u8,
    /// BTH Solicited Event.
    pub solicited: bool,
    /// BTH MigReq.
    pub migreq: bool,
    /// BTH PadCnt.
    pub padcount: u8,
    /// BTH TVer (transport header version).
    pub tver: u8,
    /// BTH P_Key.
    pub pkey: u16,
    /// BTH FECN.
    pub fecn: bool,
    /// BTH BECN.
    pub becn: bool,
    /// BTH resv6a.
    pub resv6: u8,
    /// BTH DestQP.
    pub dest_qp: u32,
    /// BTH AckReq.
    pub ack_req: bool,
    /// BTH resv7.
    pub resv7: u8,
    /// BTH PSN.
    pub psn: u32,
    /// The packet's ICRC, its four bytes read most significant first.
    pub icrc: u32,
    /// The ICRC scapy computes for the packet, read the same way.
    pub icrc_computed: u32,
    /// `icrc == icrc_computed`.
    pub icrc_ok: bool,
    /// AETH Syndrome.
    pub syndrome: u8,
    /// AETH MSN.
    pub msn: u32,
}

/// The decoding script, checked in with the workshop.
pub fn decode_script() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/decode_roce.py"
    ))
}

/// Decodes `packets` (Ethernet frames, e.g. from [`frame_nak`]) with scapy:
/// writes them to a pcap file under `build/roce/`, runs
/// [`decode_script`] on it with `.tools/venv/bin/python` and parses its
/// JSON lines, one [`DecodedNak`] per packet in order.
///
/// An error (a missing interpreter or scapy, naming the command that
/// installs them; the script failing; a line that does not parse; a count
/// other than `packets.len()`) is returned, for the caller to fail on. The
/// pcap file is removed after a successful decode and kept, and named in
/// the error, otherwise.
pub fn dissect_naks(packets: &[Vec<u8>]) -> Result<Vec<DecodedNak>, String> {
    let script = decode_script();
    if !script.is_file() {
        return Err(format!("{} not found", script.display()));
    }
    let mut cmd = crate::tools::command("python")?;
    let dir = crate::tools::build_dir().join("roce");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let pcap = dir.join(format!(
        "naks-{}-{}.pcap",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    ));
    write_pcap(&pcap, packets).map_err(|e| format!("cannot write {}: {e}", pcap.display()))?;
    let out = cmd
        .arg(&script)
        .arg(&pcap)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    let failed = |what: String| {
        format!(
            "{what} (decoding {}, kept):\n{}",
            pcap.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    if !out.status.success() {
        return Err(failed(format!(
            "{} failed ({})",
            script.display(),
            out.status
        )));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let decoded = stdout
        .lines()
        .map(|line| {
            serde_json::from_str::<DecodedNak>(line)
                .map_err(|e| failed(format!("cannot parse {line:?}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if decoded.len() != packets.len() {
        return Err(failed(format!(
            "{} packets decoded, {} written",
            decoded.len(),
            packets.len()
        )));
    }
    let _ = std::fs::remove_file(&pcap);
    Ok(decoded)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The BTH + AETH of the first vector: P_Key 0x8001, DestQP 0xABCDEF,
    /// PSN 0xFFFFFF, syndrome 0x2C (RNR NAK, timer code 12), MSN 0x800000.
    const HDR_RNR: u128 = 0x1100_8001_00ab_cdef_00ff_ffff_2c80_0000;
    /// The second: P_Key 0xFFFF, DestQP 0xFFFFFF, PSN 1, syndrome 0x63
    /// (remote operational error), MSN 0xFFFFFF.
    const HDR_FATAL: u128 = 0x1100_ffff_00ff_ffff_0000_0001_63ff_ffff;

    /// Both packets as scapy 2.6.1 builds them (its ICRC included), from
    /// `raw(Ether(dst="02:00:00:00:00:02", src="02:00:00:00:00:01")
    /// / IP(src="192.0.2.1", dst="192.0.2.2", id=0, flags="DF", ttl=64)
    /// / UDP(sport=0xC000, dport=4791, chksum=0)
    /// / BTH(opcode=0x11, pkey=P, dqpn=Q, psn=N) / AETH(syndrome=S, msn=M)).hex()`
    /// with the header fields above.
    const SCAPY_RNR: &str = "020000000002020000000001080045000030000040004011b6b9c0000201c0000202\
        c00012b7001c00001100800100abcdef00ffffff2c800000fb077f35";
    const SCAPY_FATAL: &str =
        "020000000002020000000001080045000030000040004011b6b9c0000201c0000202\
        c00012b7001c00001100ffff00ffffff0000000163ffffff809157c2";

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn roce_frame_matches_scapy_built_packets_byte_for_byte() {
        assert_eq!(hex(&frame_nak(HDR_RNR)), SCAPY_RNR);
        assert_eq!(hex(&frame_nak(HDR_FATAL)), SCAPY_FATAL);
        assert_eq!(frame_nak(HDR_RNR).len(), FRAME_BYTES);
    }

    #[test]
    fn roce_ipv4_checksum_and_icrc_of_one_packet() {
        let f = frame_nak(HDR_RNR);
        let ip = &f[ETH_BYTES..ETH_BYTES + IPV4_BYTES];
        // scapy's IP checksum of the header above.
        assert_eq!(u16::from_be_bytes([ip[10], ip[11]]), 0xb6b9);
        // A correct header sums (ones' complement, checksum included) to 0xFFFF.
        let sum = ip
            .chunks(2)
            .map(|w| u32::from(u16::from_be_bytes([w[0], w[1]])))
            .sum::<u32>();
        assert_eq!((sum & 0xffff) + (sum >> 16), 0xffff);
        // scapy's ICRC of the packet (BTH.icrc as it dissects it).
        let n = f.len();
        assert_eq!(
            u32::from_be_bytes(f[n - 4..].try_into().unwrap()),
            0xfb07_7f35
        );
        assert_eq!(
            icrc(&f[ETH_BYTES..n - ICRC_BYTES]).to_le_bytes(),
            [0xfb, 0x07, 0x7f, 0x35]
        );
        // The ICRC ignores the variant fields: a router rewriting the TTL,
        // the TOS or the ECN bits of the BTH does not change it.
        let mut routed = f[ETH_BYTES..n - ICRC_BYTES].to_vec();
        routed[1] = 0x03;
        routed[8] = 17;
        routed[IPV4_BYTES + UDP_BYTES + 4] = 0xc0;
        assert_eq!(icrc(&routed), icrc(&f[ETH_BYTES..n - ICRC_BYTES]));
        // An invariant field does.
        routed[IPV4_BYTES + UDP_BYTES + 2] ^= 1;
        assert_ne!(icrc(&routed), icrc(&f[ETH_BYTES..n - ICRC_BYTES]));
    }

    #[test]
    fn roce_crc32_check_value() {
        // The CRC-32 catalogue's check value (CRC-32/ISO-HDLC).
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn roce_pcap_layout() {
        let path = crate::tools::build_dir().join(format!("roce-unit-{}.pcap", std::process::id()));
        write_pcap(&path, &[frame_nak(HDR_RNR), vec![1, 2, 3]]).unwrap();
        let b = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(b[..4], [0xd4, 0xc3, 0xb2, 0xa1], "magic, little-endian");
        assert_eq!(
            u32::from_le_bytes(b[20..24].try_into().unwrap()),
            1,
            "Ethernet"
        );
        assert_eq!(b.len(), 24 + 16 + FRAME_BYTES + 16 + 3);
        let rec = &b[24..40];
        assert_eq!(
            u32::from_le_bytes(rec[8..12].try_into().unwrap()),
            FRAME_BYTES as u32
        );
        assert_eq!(
            u32::from_le_bytes(rec[12..16].try_into().unwrap()),
            FRAME_BYTES as u32
        );
        let rec2 = &b[40 + FRAME_BYTES..56 + FRAME_BYTES];
        assert_eq!(
            u32::from_le_bytes(rec2[4..8].try_into().unwrap()),
            1,
            "1 us"
        );
        assert_eq!(u32::from_le_bytes(rec2[8..12].try_into().unwrap()), 3);
    }
}
