"""Decodes the RoCE v2 packets of a pcap file with scapy's dissectors.

Usage: decode_roce.py FILE.pcap

Prints one JSON object per packet, in file order, on standard output: which
layers scapy found (UDP, BTH, AETH), the fields of the IPv4 and UDP headers
the framing sets, every BTH and AETH field, and whether the checks scapy
computes hold: the IPv4 header checksum, the IPv4 and UDP lengths, and the
ICRC (`BTH.compute_icrc`, the IBTA RoCE v2 invariant CRC) against the one in
the packet. A field of a layer scapy did not find is left out.

Run by `odp_mmu_workshop::harness::roce::dissect_naks` with the interpreter of
`.tools/venv`, where `synth/install-tools.sh` installs scapy.
"""

import json
import struct
import sys

try:
    from scapy.all import IP, UDP, bind_layers, rdpcap, raw
    from scapy.contrib.roce import AETH, BTH
    from scapy.utils import checksum
except ImportError as e:
    sys.stderr.write(
        f"scapy is not installed for {sys.executable} ({e}): "
        "run `bash synth/install-tools.sh` from the project root\n"
    )
    sys.exit(3)

ROCE_V2_PORT = 4791

# scapy's RoCE module binds the RoCE v2 port to BTH; bind it here if a
# release does not.
if not any(cls is BTH and fields.get("dport") == ROCE_V2_PORT
           for fields, cls in UDP.payload_guess):
    bind_layers(UDP, BTH, dport=ROCE_V2_PORT)


def decode(index, pkt):
    """The fields and checks of one packet, as a dict."""
    out = {
        "index": index,
        "has_udp": bool(pkt.haslayer(UDP)),
        "has_bth": bool(pkt.haslayer(BTH)),
        "has_aeth": bool(pkt.haslayer(AETH)),
    }
    if pkt.haslayer(IP):
        ip = pkt[IP]
        header = raw(ip)[: ip.ihl * 4]
        out.update(
            ip_src=ip.src,
            ip_dst=ip.dst,
            ip_tos=ip.tos,
            ip_ttl=ip.ttl,
            ip_proto=ip.proto,
            ip_df=bool(ip.flags.DF),
            ip_chksum_ok=checksum(header) == 0,
            ip_len_ok=ip.len == len(raw(ip)),
        )
    if pkt.haslayer(UDP):
        udp = pkt[UDP]
        out.update(
            udp_sport=udp.sport,
            udp_dport=udp.dport,
            udp_chksum=udp.chksum,
            udp_len_ok=udp.len == len(raw(udp)),
        )
    if pkt.haslayer(BTH):
        bth = pkt[BTH]
        # The ICRC field holds the packet's last four bytes read big-endian;
        # compute_icrc returns the bytes the ICRC must have on the wire.
        in_packet = struct.pack("!I", bth.icrc)
        computed = bth.compute_icrc(b"")
        out.update(
            opcode=bth.opcode,
            solicited=bool(bth.solicited),
            migreq=bool(bth.migreq),
            padcount=bth.padcount,
            tver=bth.version,
            pkey=bth.pkey,
            fecn=bool(bth.fecn),
            becn=bool(bth.becn),
            resv6=bth.resv6,
            dest_qp=bth.dqpn,
            ack_req=bool(bth.ackreq),
            resv7=bth.resv7,
            psn=bth.psn,
            icrc=bth.icrc,
            icrc_computed=struct.unpack("!I", computed)[0],
            icrc_ok=computed == in_packet,
        )
    if pkt.haslayer(AETH):
        aeth = pkt[AETH]
        out.update(syndrome=aeth.syndrome, msn=aeth.msn)
    return out


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: decode_roce.py FILE.pcap\n")
        sys.exit(2)
    for index, pkt in enumerate(rdpcap(sys.argv[1])):
        print(json.dumps(decode(index, pkt), sort_keys=True))


if __name__ == "__main__":
    main()
