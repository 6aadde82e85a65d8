//! Page tables in host memory (SPEC section 3): a builder that lays them out
//! in a [`HostMemory`] and the reference walk every walker test compares
//! against.
//!
//! Format: per MR a radix tree of 4 KiB tables of 512 little-endian 64-bit
//! entries, `levels` 1..4, the walk starting at the root at level
//! `levels - 1`; the index at level i is `off[12+9i+8 : 12+9i]`; PTE bit 0 P,
//! bit 1 W, bit 7 H (level 1: 2 MiB leaf; level 2: 1 GiB leaf; level 0:
//! ignored; level 3: reserved, FATAL); bits 51:12 the next table's or the
//! frame's physical address. Frames and roots are given as 4 KiB frame
//! numbers (physical address >> 12).

use super::host_memory::{HostMemory, RESP_OKAY};
use odp_mmu::spec::{pte, PageSize};

/// Host memory as 64-bit words, as page-table code sees it: the memory model
/// of the testbenches, or a driver's view of real host memory through its
/// bus (see `crate::driver::Bus`).
pub trait WordMemory {
    /// The little-endian 64-bit word at `addr` (8-byte aligned).
    fn load64(&mut self, addr: u64) -> u64;
    /// Writes the 64-bit word at `addr` (8-byte aligned).
    fn store64(&mut self, addr: u64, value: u64);
}

impl WordMemory for HostMemory {
    fn load64(&mut self, addr: u64) -> u64 {
        self.read64(addr)
    }
    fn store64(&mut self, addr: u64, value: u64) {
        self.write64(addr, value)
    }
}

/// What a walk finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A leaf: its PTE bits 51:12 as a frame number, its size, its W bit.
    Ok {
        ppn: u64,
        size: PageSize,
        writable: bool,
    },
    NotPresent,
    Fatal,
}

/// The table index at `level` for `off`.
pub fn index(off: u64, level: u8) -> u64 {
    (off >> (12 + 9 * level as u64)) & 0x1ff
}

/// True when `off` lies beyond what a tree of `levels_m1 + 1` levels reaches.
pub fn out_of_reach(off: u64, levels_m1: u8) -> bool {
    let bits = 12 + 9 * (levels_m1 as u32 + 1);
    bits < 64 && (off >> bits) != 0
}

/// What one PTE read tells a walk at `level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A table entry: continue at the next level in this table frame.
    Descend(u64),
    /// The walk ends here.
    Finish(Outcome),
}

/// One step of the walk: the PTE `pte` read at `level` with AXI response
/// `resp`.
pub fn walk_step(level: u8, pte: u64, resp: u8) -> Step {
    if resp != RESP_OKAY && resp != super::host_memory::RESP_EXOKAY {
        return Step::Finish(Outcome::Fatal);
    }
    if pte & pte::P == 0 {
        return Step::Finish(Outcome::NotPresent);
    }
    let frame = (pte & pte::ADDR_MASK) >> 12;
    let huge = pte & pte::H != 0;
    let size = match (level, huge) {
        (0, _) => PageSize::Size4K,
        (1, true) => PageSize::Size2M,
        (2, true) => PageSize::Size1G,
        (3, true) => return Step::Finish(Outcome::Fatal),
        _ => return Step::Descend(frame),
    };
    Step::Finish(Outcome::Ok {
        ppn: frame,
        size,
        writable: pte & pte::W != 0,
    })
}

/// The address of the PTE at `level` in table frame `table` for `off`.
pub fn pte_address(table: u64, level: u8, off: u64) -> u64 {
    (table << 12).wrapping_add(8 * index(off, level))
}

/// The reference walk: the outcome and the PTE addresses read, in order.
/// AXI errors come from the memory's injected error ranges.
pub fn walk_trace(mem: &HostMemory, root: u64, levels_m1: u8, off: u64) -> (Outcome, Vec<u64>) {
    let mut reads = Vec::new();
    if out_of_reach(off, levels_m1) {
        return (Outcome::Fatal, reads);
    }
    let mut table = root;
    let mut level = levels_m1;
    loop {
        let addr = pte_address(table, level, off);
        reads.push(addr);
        let resp = mem.resp_at(addr);
        match walk_step(level, mem.read64(addr), resp) {
            Step::Finish(outcome) => return (outcome, reads),
            Step::Descend(frame) => {
                table = frame;
                level -= 1;
            }
        }
    }
}

/// The reference walk's outcome.
pub fn walk(mem: &HostMemory, root: u64, levels_m1: u8, off: u64) -> Outcome {
    walk_trace(mem, root, levels_m1, off).0
}

/// An MR's page-table parameters as the walker gets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MrTables {
    pub root: u64,
    pub levels_m1: u8,
}

/// Lays out page tables in host memory: allocates 4 KiB table frames from a
/// bump allocator and writes PTEs.
pub struct PageTableBuilder {
    next_frame: u64,
    end_frame: u64,
    /// Write zeros over every table frame it allocates below the root (real
    /// host memory is not zero; the memory model's fresh frames are).
    pub zero_tables: bool,
}

impl PageTableBuilder {
    /// Tables are allocated from frames `first_frame..end_frame`.
    pub fn new(first_frame: u64, end_frame: u64) -> Self {
        Self {
            next_frame: first_frame,
            end_frame,
            zero_tables: false,
        }
    }

    /// A zeroed table's frame number (fresh frames are zero: never written).
    pub fn alloc_table(&mut self) -> u64 {
        assert!(
            self.next_frame < self.end_frame,
            "page-table frame pool exhausted"
        );
        self.next_frame += 1;
        self.next_frame - 1
    }

    /// A new MR with an empty root table.
    pub fn new_mr(&mut self, levels: u8) -> MrTables {
        assert!(
            (1..=4).contains(&levels),
            "levels must be 1..4, got {levels}"
        );
        MrTables {
            root: self.alloc_table(),
            levels_m1: levels - 1,
        }
    }

    /// The address of the PTE at `level` on `off`'s path, creating the
    /// missing tables above it (their PTEs get P and W). Panics if a PTE on
    /// the way is a present leaf.
    pub fn pte_addr<M: WordMemory + ?Sized>(
        &mut self,
        mem: &mut M,
        mr: MrTables,
        off: u64,
        level: u8,
    ) -> u64 {
        assert!(level <= mr.levels_m1);
        assert!(
            !out_of_reach(off, mr.levels_m1),
            "off {off:#x} out of reach"
        );
        let mut table = mr.root;
        let mut l = mr.levels_m1;
        loop {
            let addr = (table << 12) + 8 * index(off, l);
            if l == level {
                return addr;
            }
            let pte = mem.load64(addr);
            if pte & pte::P == 0 {
                let t = self.alloc_table();
                if self.zero_tables {
                    for k in 0..512 {
                        mem.store64((t << 12) + 8 * k, 0);
                    }
                }
                mem.store64(addr, (t << 12) | pte::P | pte::W);
                table = t;
            } else {
                assert!(
                    pte & pte::H == 0 || l == 0,
                    "pte_addr: a huge leaf at level {l} is in the way"
                );
                table = (pte & pte::ADDR_MASK) >> 12;
            }
            l -= 1;
        }
    }

    /// Writes `pte` verbatim at `level` on `off`'s path; returns its address.
    pub fn set_pte<M: WordMemory + ?Sized>(
        &mut self,
        mem: &mut M,
        mr: MrTables,
        off: u64,
        level: u8,
        pte: u64,
    ) -> u64 {
        let addr = self.pte_addr(mem, mr, off, level);
        mem.store64(addr, pte);
        addr
    }

    /// Maps the `size` page holding `off` to frame `frame` (a frame number,
    /// aligned to `size`), present, writable or not.
    pub fn map<M: WordMemory + ?Sized>(
        &mut self,
        mem: &mut M,
        mr: MrTables,
        off: u64,
        size: PageSize,
        frame: u64,
        writable: bool,
    ) -> u64 {
        assert!(
            size.level() <= mr.levels_m1,
            "{size:?} page needs more levels"
        );
        assert!(
            frame < 1 << 40,
            "frame {frame:#x} does not fit PTE bits 51:12"
        );
        assert_eq!(
            (frame << 12) % size.bytes(),
            0,
            "frame not aligned to {size:?}"
        );
        let mut pte = (frame << 12) | pte::P;
        if writable {
            pte |= pte::W;
        }
        if size != PageSize::Size4K {
            pte |= pte::H;
        }
        self.set_pte(mem, mr, off, size.level(), pte)
    }
}
