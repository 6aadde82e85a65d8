//! Verilog generation with the project's module names.
//!
//! rust-hdl names the top module `top` and each submodule `top$path$to$child`.
//! Integrators instantiate `odp_mmu`, several Verilated models must coexist in
//! one test process, and Tcl expands `$`, so every generated module is renamed
//! to `<name>` / `<name>__path__to__child`. Port and signal names are left
//! alone; the top level's ports are flat by construction.

use rust_hdl::prelude::*;

/// Generates checked Verilog for `uut` with its top module named `name`.
///
/// `uut` must be connected (`connect_all`). Panics, as rust-hdl does, when the
/// design fails rust-hdl's structural checks.
pub fn generate<B: Block>(uut: &B, name: &str) -> String {
    rename_modules(&generate_verilog(uut), name)
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
    fn leaves_signals_that_merely_start_with_top_alone() {
        let src = "    topper = top_q;\n    topx y(\n";
        assert_eq!(
            rename_modules(src, "m"),
            "    topper = top_q;\n    topx y(\n"
        );
    }
}
