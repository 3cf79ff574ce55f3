//! `#[derive(Enumerable)]`: a hand-written enum or struct as FEAT constructors. Each
//! variant (or the struct) is one constructor costing 1 unless `#[enumerable(cost = n)]`
//! says otherwise, printed as its name, or `print = "..."`, applied to its fields:
//! `(Add x y)`, `Zero`. The grammar spanning the field types is assembled at run time.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{
    Attribute, Data, DeriveInput, Fields, GenericArgument, Ident, LitInt, LitStr, PathArguments,
    Type,
};

/// What the attributes of one constructor say.
struct Options {
    cost: u32,
    print: String,
}

/// One constructor: its path (`Type` or `Type::Variant`), its fields, its options.
type Constructor<'a> = (TokenStream, &'a Fields, Options);

/// What each constructor contributes to the generated impls: its entry in the rule's
/// table and its arms in `from_term`, `shape` and `write_tokens`.
#[derive(Default)]
struct Arms {
    table: Vec<TokenStream>,
    from_term: Vec<TokenStream>,
    shape: Vec<TokenStream>,
    write_tokens: Vec<TokenStream>,
}

/// The expansion of `#[derive(Enumerable)]`.
pub fn derive(input: &DeriveInput) -> syn::Result<TokenStream> {
    if !input.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &input.generics,
            "`#[derive(Enumerable)]` does not support generic types",
        ));
    }
    let constructors = constructors(input)?;
    let mut arms = Arms::default();
    for (alt, constructor) in constructors.iter().enumerate() {
        arms.add(alt as u32, constructor);
    }
    Ok(impls(&input.ident, &arms))
}

/// The constructors of the type: the struct itself, or each variant of the enum;
/// `#[enumerable(...)]` anywhere else is an error at its span.
fn constructors(input: &DeriveInput) -> syn::Result<Vec<Constructor<'_>>> {
    let ident = &input.ident;
    let mut constructors: Vec<Constructor<'_>> = Vec::new();
    match &input.data {
        Data::Struct(s) => {
            let options = options(&input.attrs, &ident.to_string())?;
            constructors.push((quote!(#ident), &s.fields, options));
        }
        Data::Enum(e) => {
            if let Some(attr) = input.attrs.iter().find(|a| a.path().is_ident("enumerable")) {
                return Err(syn::Error::new_spanned(
                    attr,
                    "on an enum, `#[enumerable(...)]` goes on the variants",
                ));
            }
            for v in &e.variants {
                let options = options(&v.attrs, &v.ident.to_string())?;
                let name = &v.ident;
                constructors.push((quote!(#ident::#name), &v.fields, options));
            }
        }
        Data::Union(u) => {
            return Err(syn::Error::new_spanned(
                u.union_token,
                "`#[derive(Enumerable)]` does not support unions",
            ))
        }
    }
    for (_, fields, _) in &constructors {
        for field in fields.iter() {
            if let Some(attr) = field.attrs.iter().find(|a| a.path().is_ident("enumerable")) {
                return Err(syn::Error::new_spanned(
                    attr,
                    "`#[enumerable(...)]` goes on a variant or a struct, not on a field",
                ));
            }
        }
    }
    Ok(constructors)
}

impl Arms {
    /// Adds constructor number `alt`.
    fn add(&mut self, alt: u32, (path, fields, options): &Constructor<'_>) {
        let Options { cost, print } = options;
        let field_types: Vec<(Type, bool)> = fields.iter().map(|f| unbox(&f.ty)).collect();
        let tys: Vec<&Type> = field_types.iter().map(|(t, _)| t).collect();
        self.table.push(quote! {
            ::et_core::typed::Constructor {
                print: #print,
                cost: #cost,
                fields: &[#(<#tys as ::et_core::typed::Constructors>::rule as ::et_core::typed::Describe),*],
            }
        });
        let binds: Vec<Ident> = (0..field_types.len())
            .map(|j| format_ident!("f{j}"))
            .collect();
        let pattern = match fields {
            Fields::Unit => quote!(#path),
            Fields::Unnamed(_) => quote!(#path(#(#binds),*)),
            Fields::Named(named) => {
                let names = named.named.iter().map(|f| f.ident.as_ref().expect("named"));
                quote!(#path { #(#names: #binds),* })
            }
        };
        let values = field_types.iter().enumerate().map(|(j, (t, boxed))| {
            let v = quote!(<#t as ::et_core::typed::Enumerable>::from_term(&term.children[#j]));
            if *boxed {
                quote!(::std::boxed::Box::new(#v))
            } else {
                v
            }
        });
        let build = match fields {
            Fields::Unit => quote!(#path),
            Fields::Unnamed(_) => quote!(#path(#(#values),*)),
            Fields::Named(named) => {
                let names = named.named.iter().map(|f| f.ident.as_ref().expect("named"));
                quote!(#path { #(#names: #values),* })
            }
        };
        self.from_term.push(quote!(#alt => #build,));
        self.shape.push(quote! {
            #pattern => ::et_core::typed::node(0, #alt, #cost, ::std::vec![
                #(<#tys as ::et_core::typed::Constructors>::shape(#binds)),*
            ]),
        });
        // The same tokens as `typed::constructor_items` gives the engine's printer.
        let wrap = !binds.is_empty();
        let open = wrap.then(|| quote!(out.token("(")?;));
        let close = wrap.then(|| quote!(out.token(")")?;));
        let op = (!print.is_empty()).then(|| quote!(out.token(#print)?;));
        self.write_tokens.push(quote! {
            #pattern => {
                #open
                #op
                #(<#tys as ::et_core::typed::Enumerable>::write_tokens(#binds, out)?;)*
                #close
            }
        });
    }
}

/// The impls of `Constructors`, `Enumerable` and `Display` for `ident`.
fn impls(ident: &Ident, arms: &Arms) -> TokenStream {
    let name = ident.to_string();
    let Arms {
        table,
        from_term: from_arms,
        shape: shape_arms,
        write_tokens: write_arms,
    } = arms;
    let bad_alt = format!("type `{name}` has no constructor {{}}: the term is not of this type");
    quote! {
        impl ::et_core::typed::Constructors for #ident {
            fn rule() -> &'static ::et_core::typed::AdtRule {
                static RULE: ::et_core::typed::AdtRule = ::et_core::typed::AdtRule {
                    name: #name,
                    constructors: &[#(#table),*],
                };
                &RULE
            }

            fn shape(&self) -> ::et_core::enumeration::Term {
                match self {
                    #(#shape_arms)*
                }
            }
        }

        impl ::et_core::typed::Enumerable for #ident {
            fn grammar() -> &'static ::et_core::grammar::Grammar {
                static GRAMMAR: ::std::sync::OnceLock<::et_core::grammar::Grammar> =
                    ::std::sync::OnceLock::new();
                // The trait hands out a grammar: a type spelling no enumerable grammar
                // (found only now, across types) is a programming error.
                GRAMMAR.get_or_init(|| {
                    ::et_core::typed::grammar_of::<#ident>()
                        .unwrap_or_else(|e| ::core::panic!("{}", e))
                })
            }

            fn from_term(term: &::et_core::enumeration::Term) -> Self {
                match term.alt {
                    #(#from_arms)*
                    other => ::core::panic!(#bad_alt, other),
                }
            }

            fn to_term(&self) -> ::et_core::enumeration::Term {
                let mut term = <Self as ::et_core::typed::Constructors>::shape(self);
                // The shape and the grammar come from the same constructors.
                ::et_core::typed::renumber(&mut term, <Self as ::et_core::typed::Enumerable>::grammar())
                    .unwrap_or_else(|e| ::core::panic!("{}", e));
                term
            }

            fn write_tokens(&self, out: &mut ::et_core::typed::TokenWriter<'_>) -> ::core::fmt::Result {
                match self {
                    #(#write_arms)*
                }
                ::core::result::Result::Ok(())
            }
        }

        impl ::core::fmt::Display for #ident {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::et_core::typed::display(self, f)
            }
        }
    }
}

/// Reads `#[enumerable(cost = n, print = "...")]`; anything else is an error at its span.
fn options(attrs: &[Attribute], default_print: &str) -> syn::Result<Options> {
    let mut options = Options {
        cost: 1,
        print: default_print.to_string(),
    };
    for attr in attrs.iter().filter(|a| a.path().is_ident("enumerable")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("cost") {
                options.cost = meta.value()?.parse::<LitInt>()?.base10_parse()?;
                Ok(())
            } else if meta.path.is_ident("print") {
                options.print = meta.value()?.parse::<LitStr>()?.value();
                Ok(())
            } else {
                let name = meta
                    .path
                    .get_ident()
                    .map_or_else(|| "?".to_string(), |i| i.to_string());
                Err(syn::Error::new(
                    meta.path.span(),
                    format!(
                        "unknown `enumerable` attribute `{name}`; expected `cost = <integer>` or `print = \"<text>\"`"
                    ),
                ))
            }
        })?;
    }
    Ok(options)
}

/// `Box<T>` → (`T`, true); any other type → (itself, false).
fn unbox(ty: &Type) -> (Type, bool) {
    if let Type::Path(p) = ty {
        if let Some(last) = p.path.segments.last() {
            if last.ident == "Box" {
                if let PathArguments::AngleBracketed(args) = &last.arguments {
                    if let [GenericArgument::Type(inner)] =
                        args.args.iter().collect::<Vec<_>>().as_slice()
                    {
                        return ((*inner).clone(), true);
                    }
                }
            }
        }
    }
    (ty.clone(), false)
}
