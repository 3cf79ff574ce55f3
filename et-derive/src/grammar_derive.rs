//! `#[derive(Grammar)]`: reads the `.pest` file named by `#[grammar = "..."]` with the
//! grammar model (et-grammar), which also emits the compiled grammar as static data;
//! this module adds one enum per rule.

use std::path::PathBuf;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Expr, ExprLit, Fields, Lit, LitInt, LitStr, Meta};

use et_grammar::{Extension, Grammar, GrammarError, Item, DEFAULT_START};

use crate::names;

/// The expansion of `#[derive(Grammar)]`, or the compile errors to emit instead.
pub fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    let path = grammar_path(input)?;
    if !matches!(&input.data, Data::Struct(s) if matches!(s.fields, Fields::Unit)) {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "`#[derive(Grammar)]` goes on a unit struct: `struct Strings;`",
        ));
    }
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "`#[derive(Grammar)]` does not take generic parameters",
        ));
    }
    let written = path.value();
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
    let full = PathBuf::from(manifest).join(&written);
    // Messages name the file as written, as `et --grammar <path>` would.
    let text = std::fs::read_to_string(&full).map_err(|source| {
        let err = GrammarError::Io {
            path: written.clone(),
            source,
        };
        syn::Error::new(path.span(), err.to_string())
    })?;
    let stem = full
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "grammar".to_string());
    let extension = extension(input)?;
    let grammar = Grammar::from_source_extended(&stem, &written, &text, DEFAULT_START, extension)
        .map_err(|e| grammar_errors(&e, path.span()))?;
    Ok(emit(
        input,
        &grammar,
        &full.display().to_string(),
        extension,
    ))
}

/// The optional `#[extend(vars = N, asserts = M)]` (both required when present).
fn extension(input: &DeriveInput) -> syn::Result<Option<Extension>> {
    let mut found = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("extend")) {
        if found.is_some() {
            return Err(syn::Error::new_spanned(
                attr,
                "a second `#[extend]` attribute",
            ));
        }
        let (mut vars, mut asserts) = (None, None);
        attr.parse_nested_meta(|meta| {
            let value = || -> syn::Result<u32> { meta.value()?.parse::<LitInt>()?.base10_parse() };
            if meta.path.is_ident("vars") {
                vars = Some(value()?);
                Ok(())
            } else if meta.path.is_ident("asserts") {
                asserts = Some(value()?);
                Ok(())
            } else {
                Err(meta.error("expected `vars = <integer>` or `asserts = <integer>`"))
            }
        })?;
        match (vars, asserts) {
            (Some(vars), Some(asserts)) => found = Some(Extension { vars, asserts }),
            _ => {
                return Err(syn::Error::new_spanned(
                    attr,
                    "`#[extend]` needs both `vars = <integer>` and `asserts = <integer>`",
                ))
            }
        }
    }
    Ok(found)
}

/// Every problem the grammar library found, each a `compile_error!` at the attribute
/// carrying the sentence `et --grammar` prints.
fn grammar_errors(err: &GrammarError, span: Span) -> syn::Error {
    let mut lines: Vec<String> = err.diagnostics().iter().map(|d| d.to_string()).collect();
    if lines.is_empty() {
        lines.push(err.to_string());
    }
    let mut errors = lines.into_iter().map(|l| syn::Error::new(span, l));
    let mut first = errors.next().expect("at least one line");
    first.extend(errors);
    first
}

/// The value of the one `#[grammar = "..."]` attribute.
fn grammar_path(input: &DeriveInput) -> syn::Result<LitStr> {
    let mut found: Option<LitStr> = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("grammar")) {
        let lit = match &attr.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.clone()),
                _ => None,
            },
            _ => None,
        };
        let Some(lit) = lit else {
            return Err(syn::Error::new_spanned(
                attr,
                "expected `#[grammar = \"path/to/file.pest\"]` (relative to the crate's Cargo.toml)",
            ));
        };
        if found.is_some() {
            return Err(syn::Error::new_spanned(
                attr,
                "a second `#[grammar]` attribute",
            ));
        }
        found = Some(lit);
    }
    found.ok_or_else(|| {
        syn::Error::new(
            Span::call_site(),
            "`#[derive(Grammar)]` needs `#[grammar = \"path/to/file.pest\"]`",
        )
    })
}

fn emit(
    input: &DeriveInput,
    grammar: &Grammar,
    full_path: &str,
    extension: Option<Extension>,
) -> TokenStream {
    let ident = &input.ident;
    let vis = &input.vis;
    let module = format_ident!("{}", snake(&ident.to_string()));
    let types: Vec<String> = names::type_names(grammar);
    let type_idents: Vec<_> = types.iter().map(|t| format_ident!("{t}")).collect();
    let start_type = &type_idents[grammar.start];
    let data = et_grammar::codegen::compiled_grammar(
        grammar,
        &quote!(::et_core::grammar),
        full_path,
        extension,
    );
    let reach = reachability(grammar);
    let enums = (0..grammar.nonterminals.len()).map(|nt| rule_enum(grammar, nt, &types, &reach));
    let module_doc = format!(
        " The types of grammar `{}` (`{}`), one enum per rule, generated by \
         `#[derive(Grammar)]` on [`{ident}`](super::{ident}).",
        grammar.name, grammar.file
    );
    quote! {
        impl ::et_core::typed::DerivedGrammar for #ident {
            type Start = #module::#start_type;
            const COMPILED: &'static ::et_core::grammar::CompiledGrammar = &#module::GRAMMAR;
        }

        #[doc = #module_doc]
        #vis mod #module {
            /// The grammar as compiled from its `.pest` file (no parsing at run time).
            pub const GRAMMAR: ::et_core::grammar::CompiledGrammar = #data;

            #(#enums)*
        }
    }
}

/// `reach[a][b]`: rule `b` can be reached from rule `a` through children.
fn reachability(grammar: &Grammar) -> Vec<Vec<bool>> {
    let n = grammar.nonterminals.len();
    (0..n)
        .map(|from| {
            let mut seen = vec![false; n];
            let mut stack: Vec<usize> = grammar.nonterminals[from]
                .alternatives
                .iter()
                .flat_map(|a| a.children())
                .collect();
            while let Some(nt) = stack.pop() {
                if !std::mem::replace(&mut seen[nt], true) {
                    stack.extend(
                        grammar.nonterminals[nt]
                            .alternatives
                            .iter()
                            .flat_map(|a| a.children()),
                    );
                }
            }
            seen
        })
        .collect()
}

/// One rule's enum and its `Enumerable` and `Display` impls.
fn rule_enum(grammar: &Grammar, nt: usize, types: &[String], reach: &[Vec<bool>]) -> TokenStream {
    let rule = &grammar.nonterminals[nt];
    let ty = format_ident!("{}", types[nt]);
    let variants = names::variant_names(grammar, nt, types);
    let written = |alt: &et_grammar::Alternative| {
        let words: Vec<String> = alt
            .items
            .iter()
            .map(|i| match *i {
                Item::Token(t) => format!("{:?}", grammar.token(t)),
                Item::Child(c) => grammar.nonterminals[c].name.clone(),
            })
            .collect();
        if words.is_empty() {
            "nothing".to_string()
        } else {
            words.join(" ~ ")
        }
    };
    let doc = match rule.generated_in {
        None => format!(" Rule `{}` (line {}).", rule.name, rule.position.line),
        Some(owner) => format!(
            " A group or repetition in rule `{}` (line {}, column {}).",
            grammar.nonterminals[owner].name, rule.position.line, rule.position.column
        ),
    };

    let mut decls = Vec::new();
    let mut from_arms = Vec::new();
    let mut to_arms = Vec::new();
    let mut write_arms = Vec::new();
    for (a, (alt, variant)) in rule.alternatives.iter().zip(&variants).enumerate() {
        let v = format_ident!("{variant}");
        let alt_index = a as u32;
        let cost = alt.cost;
        let children: Vec<usize> = alt.children().collect();
        let binds: Vec<_> = (0..children.len()).map(|j| format_ident!("c{j}")).collect();
        let child_types: Vec<_> = children
            .iter()
            .map(|&c| format_ident!("{}", types[c]))
            .collect();
        let boxed: Vec<bool> = children.iter().map(|&c| reach[c][nt]).collect();
        let fields = child_types.iter().zip(&boxed).map(|(t, &b)| {
            if b {
                quote!(::std::boxed::Box<#t>)
            } else {
                quote!(#t)
            }
        });
        let variant_doc = format!(" `{}` (cost {cost}).", written(alt));
        let pattern = if children.is_empty() {
            quote!(#ty::#v)
        } else {
            quote!(#ty::#v(#(#binds),*))
        };
        if children.is_empty() {
            decls.push(quote! { #[doc = #variant_doc] #v });
        } else {
            decls.push(quote! { #[doc = #variant_doc] #v(#(#fields),*) });
        }
        let from_children = child_types
            .iter()
            .zip(&boxed)
            .enumerate()
            .map(|(j, (t, &b))| {
                let value =
                    quote!(<#t as ::et_core::typed::Enumerable>::from_term(&term.children[#j]));
                if b {
                    quote!(::std::boxed::Box::new(#value))
                } else {
                    value
                }
            });
        from_arms.push(if children.is_empty() {
            quote!(#alt_index => #ty::#v,)
        } else {
            quote!(#alt_index => #ty::#v(#(#from_children),*),)
        });
        let to_children = child_types
            .iter()
            .zip(&binds)
            .map(|(t, c)| quote!(<#t as ::et_core::typed::Enumerable>::to_term(#c)));
        to_arms.push(quote! {
            #pattern => ::et_core::typed::node(#nt, #alt_index, #cost, ::std::vec![#(#to_children),*]),
        });
        let mut child = 0;
        let writes = alt.items.iter().map(|item| match *item {
            Item::Token(t) => {
                let token = grammar.token(t);
                quote!(out.token(#token)?;)
            }
            Item::Child(_) => {
                let (t, c) = (&child_types[child], &binds[child]);
                child += 1;
                quote!(<#t as ::et_core::typed::Enumerable>::write_tokens(#c, out)?;)
            }
        });
        let writes: Vec<_> = writes.collect();
        write_arms.push(quote!(#pattern => { #(#writes)* }));
    }
    let rule_name = &rule.name;
    let bad_alt =
        format!("rule `{rule_name}` has no alternative {{}}: the term is not of this grammar");
    quote! {
        #[doc = #doc]
        #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq, ::core::cmp::Eq, ::core::hash::Hash)]
        pub enum #ty {
            #(#decls,)*
        }

        impl ::et_core::typed::Enumerable for #ty {
            fn grammar() -> &'static ::et_core::grammar::Grammar {
                static GRAMMAR_FROM_HERE: ::std::sync::OnceLock<::et_core::grammar::Grammar> =
                    ::std::sync::OnceLock::new();
                GRAMMAR_FROM_HERE.get_or_init(|| GRAMMAR.grammar_from(#nt))
            }

            fn from_term(term: &::et_core::enumeration::Term) -> Self {
                match term.alt {
                    #(#from_arms)*
                    other => ::core::panic!(#bad_alt, other),
                }
            }

            fn to_term(&self) -> ::et_core::enumeration::Term {
                match self {
                    #(#to_arms)*
                }
            }

            fn write_tokens(&self, out: &mut ::et_core::typed::TokenWriter<'_>) -> ::core::fmt::Result {
                match self {
                    #(#write_arms)*
                }
                ::core::result::Result::Ok(())
            }
        }

        impl ::core::fmt::Display for #ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::et_core::typed::display(self, f)
            }
        }
    }
}

/// `RealInts` → `real_ints`: the module holding a grammar's types.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
