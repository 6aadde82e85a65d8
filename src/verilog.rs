//! Verilog generation with the project's module names.
//!
//! rust-hdl names the top module `top` and each submodule `top$path$to$child`.
//! Integrators instantiate `odp_mmu`, several Verilated models must coexist in
//! one test process, and Tcl expands `$`, so every generated module is renamed
//! to `<name>` / `<name>__path__to__child`.
//!
//! Ports declared as interface bundles ([`crate::common::interfaces`]) are
//! written by rust-hdl as `<bundle>$<member>`; every module's such ports are
//! renamed `<bundle>_<member>` (`s_xreq$valid` becomes `s_xreq_valid`, the
//! SPEC's name; a nested bundle's name is dropped, [`flat_port_name`]), in
//! its declaration, its body and its instantiations. Other signal names are
//! left alone.

use rust_hdl::prelude::*;

/// Generates checked Verilog for `uut` with its top module named `name`.
///
/// `uut` must be connected (`connect_all`). Panics, as rust-hdl does, when the
/// design fails rust-hdl's structural checks.
pub fn generate<B: Block>(uut: &B, name: &str) -> String {
    flatten_ports(&rename_modules(&generate_verilog(uut), name))
}

/// The flat name of a port: rust-hdl's `bundle$member` becomes
/// `bundle_member`; the names of bundles nested inside it are dropped
/// (`m_axi$rd$arvalid` becomes `m_axi_arvalid`).
pub fn flat_port_name(name: &str) -> String {
    match (name.split_once('$'), name.rsplit_once('$')) {
        (Some((first, _)), Some((_, last))) => format!("{first}_{last}"),
        _ => name.to_string(),
    }
}

/// Renames every module's `bundle$member` ports to `bundle_member` (see the
/// module documentation). Panics if a new name is already used in that
/// module, which would merge two signals.
pub fn flatten_ports(verilog: &str) -> String {
    let mut out = String::with_capacity(verilog.len());
    let mut rest = verilog;
    while let Some(start) = find_module(rest) {
        out.push_str(&rest[..start]);
        let body = &rest[start..];
        let end = body
            .find("endmodule")
            .map(|e| e + "endmodule".len())
            .unwrap_or(body.len());
        out.push_str(&flatten_module(&body[..end]));
        rest = &body[end..];
    }
    out.push_str(rest);
    out
}

/// Offset of the next `module ` keyword at the start of a line.
fn find_module(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find("module ") {
        let at = from + i;
        if at == 0 || text.as_bytes()[at - 1] == b'\n' {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Identifiers of `text` with their byte ranges.
fn identifiers(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut ids = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if is_ident_start(b[i]) && (i == 0 || !is_ident(b[i - 1])) {
            let s = i;
            while i < b.len() && is_ident(b[i]) {
                i += 1;
            }
            ids.push((s, i));
        } else {
            i += 1;
        }
    }
    ids
}

fn flatten_module(module: &str) -> String {
    use std::collections::{HashMap, HashSet};
    let header_end = module.find(';').unwrap_or(module.len());
    let open = module[..header_end].find('(').unwrap_or(header_end);
    let ports: HashMap<&str, String> = module[open..header_end]
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .map(str::trim)
        .filter(|p| p.contains('$'))
        .map(|p| (p, flat_port_name(p)))
        .collect();
    let ids = identifiers(module);
    let bytes = module.as_bytes();
    // A `.name(` formal is a port of the instantiated module, renamed there
    // by the same rule.
    let is_formal =
        |s: usize, e: usize| s > 0 && bytes[s - 1] == b'.' && bytes.get(e) == Some(&b'(');
    if !ports.is_empty() {
        let used: HashSet<&str> = ids
            .iter()
            .filter(|&&(s, e)| !is_formal(s, e))
            .map(|&(s, e)| &module[s..e])
            .collect();
        for (old, new) in &ports {
            assert!(
                !used.contains(new.as_str()),
                "verilog: port {old} would be renamed {new}, a name already used in its module"
            );
        }
    }
    let mut out = String::with_capacity(module.len());
    let mut last = 0;
    for (s, e) in ids {
        let id = &module[s..e];
        let new = if is_formal(s, e) && id.contains('$') {
            Some(flat_port_name(id))
        } else {
            ports.get(id).cloned()
        };
        if let Some(new) = new {
            out.push_str(&module[last..s]);
            out.push_str(&new);
            last = e;
        }
    }
    out.push_str(&module[last..]);
    out
}

/// Renames rust-hdl's `top` and `top$...` modules in `verilog` to `name` and
/// `name__...`. Only module declarations, `endmodule` comments and
/// instantiation lines are touched.
pub fn rename_modules(verilog: &str, name: &str) -> String {
    let rename = |ident: &str| -> String {
        match ident.strip_prefix("top") {
            Some(rest) if rest.is_empty() || rest.starts_with('$') => {
                format!("{name}{}", rest.replace('$', "__"))
            }
            _ => ident.to_string(),
        }
    };
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 16);
    for line in verilog.lines() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        if let Some(rest) = trimmed.strip_prefix("module ") {
            let end = rest.find('(').unwrap_or(rest.len());
            out.push_str(&format!("module {}{}", rename(&rest[..end]), &rest[end..]));
        } else if let Some(rest) = trimmed.strip_prefix("endmodule // ") {
            out.push_str(&format!("endmodule // {}", rename(rest)));
        } else if is_instantiation(trimmed) {
            let end = trimmed.find(' ').unwrap_or(trimmed.len());
            out.push_str(indent);
            out.push_str(&rename(&trimmed[..end]));
            out.push_str(&trimmed[end..]);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// `top$a$b inst(`: a submodule instantiation as rust-hdl writes it.
fn is_instantiation(trimmed: &str) -> bool {
    let mut words = trimmed.split(' ');
    match (words.next(), words.next(), words.next()) {
        (Some(module), Some(inst), None) => {
            (module == "top" || module.starts_with("top$")) && inst.ends_with('(')
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_declarations_instances_and_end_comments_only() {
        let src = "module top(a);\n    top$i$r r(\n        .d(top$x)\n    );\nendmodule // top\n\nmodule top$i$r(d);\nendmodule // top$i$r\n";
        let out = rename_modules(src, "odp_mmu");
        assert_eq!(
            out,
            "module odp_mmu(a);\n    odp_mmu__i__r r(\n        .d(top$x)\n    );\nendmodule // odp_mmu\n\nmodule odp_mmu__i__r(d);\nendmodule // odp_mmu__i__r\n"
        );
    }

    #[test]
    fn flattens_bundle_ports_in_declarations_bodies_and_formals_only() {
        let src = "module m(clock,s$valid,s$ready);\n    input wire s$valid;\n    output reg s$ready;\n    m__c c(\n        .a$b(c$a$b)\n    );\n    always @(*) begin\n        s$ready = s$valid & c$a$b;\n    end\nendmodule // m\n";
        assert_eq!(
            flatten_ports(src),
            "module m(clock,s_valid,s_ready);\n    input wire s_valid;\n    output reg s_ready;\n    m__c c(\n        .a_b(c$a$b)\n    );\n    always @(*) begin\n        s_ready = s_valid & c$a$b;\n    end\nendmodule // m\n"
        );
    }

    #[test]
    #[should_panic(expected = "a name already used")]
    fn refuses_a_flat_name_that_is_taken() {
        flatten_ports("module m(s$valid);\n    reg s_valid;\nendmodule\n");
    }

    #[test]
    fn leaves_signals_that_merely_start_with_top_alone() {
        let src = "    topper = top_q;\n    topx y(\n";
        assert_eq!(
            rename_modules(src, "m"),
            "    topper = top_q;\n    topx y(\n"
        );
    }
}
