// swift-format-ignore-file
// (One element name per line, on purpose: wrapped, the list would be four times as long.)
// The element names, one type each, and the aliases pages are written with:
// `div(.class("card")) { … }` is `HTMLElement<Tag.div, …>`.

/// Element names, one type each: the `Tag` of an `HTMLElement`.
public enum Tag {
    /// The name of `<meter>`.
    public enum meter: HTMLTagName { @inlinable public static var openTag: StaticString { "<meter" }; @inlinable public static var closeTag: StaticString { "</meter>" } }
    /// The name of `<progress>`.
    public enum progress: HTMLTagName { @inlinable public static var openTag: StaticString { "<progress" }; @inlinable public static var closeTag: StaticString { "</progress>" } }
    /// The name of `<html>`.
    public enum html: HTMLTagName { @inlinable public static var openTag: StaticString { "<html" }; @inlinable public static var closeTag: StaticString { "</html>" } }
    /// The name of `<head>`.
    public enum head: HTMLTagName { @inlinable public static var openTag: StaticString { "<head" }; @inlinable public static var closeTag: StaticString { "</head>" } }
    /// The name of `<body>`.
    public enum body: HTMLTagName { @inlinable public static var openTag: StaticString { "<body" }; @inlinable public static var closeTag: StaticString { "</body>" } }
    /// The name of `<title>`.
    public enum title: HTMLTagName { @inlinable public static var openTag: StaticString { "<title" }; @inlinable public static var closeTag: StaticString { "</title>" } }
    /// The name of `<script>`.
    public enum script: HTMLTagName { @inlinable public static var openTag: StaticString { "<script" }; @inlinable public static var closeTag: StaticString { "</script>" } }
    /// The name of `<style>`.
    public enum style: HTMLTagName { @inlinable public static var openTag: StaticString { "<style" }; @inlinable public static var closeTag: StaticString { "</style>" } }
    /// The name of `<main>`.
    public enum main: HTMLTagName { @inlinable public static var openTag: StaticString { "<main" }; @inlinable public static var closeTag: StaticString { "</main>" } }
    /// The name of `<header>`.
    public enum header: HTMLTagName { @inlinable public static var openTag: StaticString { "<header" }; @inlinable public static var closeTag: StaticString { "</header>" } }
    /// The name of `<footer>`.
    public enum footer: HTMLTagName { @inlinable public static var openTag: StaticString { "<footer" }; @inlinable public static var closeTag: StaticString { "</footer>" } }
    /// The name of `<nav>`.
    public enum nav: HTMLTagName { @inlinable public static var openTag: StaticString { "<nav" }; @inlinable public static var closeTag: StaticString { "</nav>" } }
    /// The name of `<section>`.
    public enum section: HTMLTagName { @inlinable public static var openTag: StaticString { "<section" }; @inlinable public static var closeTag: StaticString { "</section>" } }
    /// The name of `<article>`.
    public enum article: HTMLTagName { @inlinable public static var openTag: StaticString { "<article" }; @inlinable public static var closeTag: StaticString { "</article>" } }
    /// The name of `<aside>`.
    public enum aside: HTMLTagName { @inlinable public static var openTag: StaticString { "<aside" }; @inlinable public static var closeTag: StaticString { "</aside>" } }
    /// The name of `<div>`.
    public enum div: HTMLTagName { @inlinable public static var openTag: StaticString { "<div" }; @inlinable public static var closeTag: StaticString { "</div>" } }
    /// The name of `<span>`.
    public enum span: HTMLTagName { @inlinable public static var openTag: StaticString { "<span" }; @inlinable public static var closeTag: StaticString { "</span>" } }
    /// The name of `<p>`.
    public enum p: HTMLTagName { @inlinable public static var openTag: StaticString { "<p" }; @inlinable public static var closeTag: StaticString { "</p>" } }
    /// The name of `<a>`.
    public enum a: HTMLTagName { @inlinable public static var openTag: StaticString { "<a" }; @inlinable public static var closeTag: StaticString { "</a>" } }
    /// The name of `<h1>`.
    public enum h1: HTMLTagName { @inlinable public static var openTag: StaticString { "<h1" }; @inlinable public static var closeTag: StaticString { "</h1>" } }
    /// The name of `<h2>`.
    public enum h2: HTMLTagName { @inlinable public static var openTag: StaticString { "<h2" }; @inlinable public static var closeTag: StaticString { "</h2>" } }
    /// The name of `<h3>`.
    public enum h3: HTMLTagName { @inlinable public static var openTag: StaticString { "<h3" }; @inlinable public static var closeTag: StaticString { "</h3>" } }
    /// The name of `<h4>`.
    public enum h4: HTMLTagName { @inlinable public static var openTag: StaticString { "<h4" }; @inlinable public static var closeTag: StaticString { "</h4>" } }
    /// The name of `<ul>`.
    public enum ul: HTMLTagName { @inlinable public static var openTag: StaticString { "<ul" }; @inlinable public static var closeTag: StaticString { "</ul>" } }
    /// The name of `<ol>`.
    public enum ol: HTMLTagName { @inlinable public static var openTag: StaticString { "<ol" }; @inlinable public static var closeTag: StaticString { "</ol>" } }
    /// The name of `<li>`.
    public enum li: HTMLTagName { @inlinable public static var openTag: StaticString { "<li" }; @inlinable public static var closeTag: StaticString { "</li>" } }
    /// The name of `<dl>`.
    public enum dl: HTMLTagName { @inlinable public static var openTag: StaticString { "<dl" }; @inlinable public static var closeTag: StaticString { "</dl>" } }
    /// The name of `<dt>`.
    public enum dt: HTMLTagName { @inlinable public static var openTag: StaticString { "<dt" }; @inlinable public static var closeTag: StaticString { "</dt>" } }
    /// The name of `<dd>`.
    public enum dd: HTMLTagName { @inlinable public static var openTag: StaticString { "<dd" }; @inlinable public static var closeTag: StaticString { "</dd>" } }
    /// The name of `<table>`.
    public enum table: HTMLTagName { @inlinable public static var openTag: StaticString { "<table" }; @inlinable public static var closeTag: StaticString { "</table>" } }
    /// The name of `<caption>`.
    public enum caption: HTMLTagName { @inlinable public static var openTag: StaticString { "<caption" }; @inlinable public static var closeTag: StaticString { "</caption>" } }
    /// The name of `<thead>`.
    public enum thead: HTMLTagName { @inlinable public static var openTag: StaticString { "<thead" }; @inlinable public static var closeTag: StaticString { "</thead>" } }
    /// The name of `<tbody>`.
    public enum tbody: HTMLTagName { @inlinable public static var openTag: StaticString { "<tbody" }; @inlinable public static var closeTag: StaticString { "</tbody>" } }
    /// The name of `<tr>`.
    public enum tr: HTMLTagName { @inlinable public static var openTag: StaticString { "<tr" }; @inlinable public static var closeTag: StaticString { "</tr>" } }
    /// The name of `<th>`.
    public enum th: HTMLTagName { @inlinable public static var openTag: StaticString { "<th" }; @inlinable public static var closeTag: StaticString { "</th>" } }
    /// The name of `<td>`.
    public enum td: HTMLTagName { @inlinable public static var openTag: StaticString { "<td" }; @inlinable public static var closeTag: StaticString { "</td>" } }
    /// The name of `<form>`.
    public enum form: HTMLTagName { @inlinable public static var openTag: StaticString { "<form" }; @inlinable public static var closeTag: StaticString { "</form>" } }
    /// The name of `<fieldset>`.
    public enum fieldset: HTMLTagName { @inlinable public static var openTag: StaticString { "<fieldset" }; @inlinable public static var closeTag: StaticString { "</fieldset>" } }
    /// The name of `<legend>`.
    public enum legend: HTMLTagName { @inlinable public static var openTag: StaticString { "<legend" }; @inlinable public static var closeTag: StaticString { "</legend>" } }
    /// The name of `<label>`.
    public enum label: HTMLTagName { @inlinable public static var openTag: StaticString { "<label" }; @inlinable public static var closeTag: StaticString { "</label>" } }
    /// The name of `<button>`.
    public enum button: HTMLTagName { @inlinable public static var openTag: StaticString { "<button" }; @inlinable public static var closeTag: StaticString { "</button>" } }
    /// The name of `<select>`.
    public enum select: HTMLTagName { @inlinable public static var openTag: StaticString { "<select" }; @inlinable public static var closeTag: StaticString { "</select>" } }
    /// The name of `<option>`.
    public enum option: HTMLTagName { @inlinable public static var openTag: StaticString { "<option" }; @inlinable public static var closeTag: StaticString { "</option>" } }
    /// The name of `<strong>`.
    public enum strong: HTMLTagName { @inlinable public static var openTag: StaticString { "<strong" }; @inlinable public static var closeTag: StaticString { "</strong>" } }
    /// The name of `<code>`.
    public enum code: HTMLTagName { @inlinable public static var openTag: StaticString { "<code" }; @inlinable public static var closeTag: StaticString { "</code>" } }
    /// The name of `<em>`.
    public enum em: HTMLTagName { @inlinable public static var openTag: StaticString { "<em" }; @inlinable public static var closeTag: StaticString { "</em>" } }
    /// The name of `<small>`.
    public enum small: HTMLTagName { @inlinable public static var openTag: StaticString { "<small" }; @inlinable public static var closeTag: StaticString { "</small>" } }
    /// The name of `<time>`.
    public enum time: HTMLTagName { @inlinable public static var openTag: StaticString { "<time" }; @inlinable public static var closeTag: StaticString { "</time>" } }
    /// The name of `<abbr>`.
    public enum abbr: HTMLTagName { @inlinable public static var openTag: StaticString { "<abbr" }; @inlinable public static var closeTag: StaticString { "</abbr>" } }
    /// The name of `<figure>`.
    public enum figure: HTMLTagName { @inlinable public static var openTag: StaticString { "<figure" }; @inlinable public static var closeTag: StaticString { "</figure>" } }
    /// The name of `<figcaption>`.
    public enum figcaption: HTMLTagName { @inlinable public static var openTag: StaticString { "<figcaption" }; @inlinable public static var closeTag: StaticString { "</figcaption>" } }
    /// The name of `<noscript>`.
    public enum noscript: HTMLTagName { @inlinable public static var openTag: StaticString { "<noscript" }; @inlinable public static var closeTag: StaticString { "</noscript>" } }
    /// The name of `<template>`.
    public enum template: HTMLTagName { @inlinable public static var openTag: StaticString { "<template" }; @inlinable public static var closeTag: StaticString { "</template>" } }
    /// The name of `<slot>`.
    public enum slot: HTMLTagName { @inlinable public static var openTag: StaticString { "<slot" }; @inlinable public static var closeTag: StaticString { "</slot>" } }
    /// The name of `<output>`.
    public enum output: HTMLTagName { @inlinable public static var openTag: StaticString { "<output" }; @inlinable public static var closeTag: StaticString { "</output>" } }
    /// The name of `<svg>`.
    public enum svg: HTMLTagName { @inlinable public static var openTag: StaticString { "<svg" }; @inlinable public static var closeTag: StaticString { "</svg>" } }
    /// The name of `<polyline>`.
    public enum polyline: HTMLTagName { @inlinable public static var openTag: StaticString { "<polyline" }; @inlinable public static var closeTag: StaticString { "</polyline>" } }
    /// The name of `<polygon>`.
    public enum polygon: HTMLTagName { @inlinable public static var openTag: StaticString { "<polygon" }; @inlinable public static var closeTag: StaticString { "</polygon>" } }
    /// The name of `<circle>`.
    public enum circle: HTMLTagName { @inlinable public static var openTag: StaticString { "<circle" }; @inlinable public static var closeTag: StaticString { "</circle>" } }
    /// The name of `<line>`.
    public enum line: HTMLTagName { @inlinable public static var openTag: StaticString { "<line" }; @inlinable public static var closeTag: StaticString { "</line>" } }
    /// The name of `<path>`.
    public enum path: HTMLTagName { @inlinable public static var openTag: StaticString { "<path" }; @inlinable public static var closeTag: StaticString { "</path>" } }
    /// The name of `<text>`.
    public enum text: HTMLTagName { @inlinable public static var openTag: StaticString { "<text" }; @inlinable public static var closeTag: StaticString { "</text>" } }
    /// The name of `<desc>`.
    public enum desc: HTMLTagName { @inlinable public static var openTag: StaticString { "<desc" }; @inlinable public static var closeTag: StaticString { "</desc>" } }
    /// The name of `<g>`.
    public enum g: HTMLTagName { @inlinable public static var openTag: StaticString { "<g" }; @inlinable public static var closeTag: StaticString { "</g>" } }
    /// The name of `<meta>`.
    public enum meta: HTMLTagName { @inlinable public static var openTag: StaticString { "<meta" }; @inlinable public static var closeTag: StaticString { "</meta>" } }
    /// The name of `<link>`.
    public enum link: HTMLTagName { @inlinable public static var openTag: StaticString { "<link" }; @inlinable public static var closeTag: StaticString { "</link>" } }
    /// The name of `<input>`.
    public enum input: HTMLTagName { @inlinable public static var openTag: StaticString { "<input" }; @inlinable public static var closeTag: StaticString { "</input>" } }
    /// The name of `<br>`.
    public enum br: HTMLTagName { @inlinable public static var openTag: StaticString { "<br" }; @inlinable public static var closeTag: StaticString { "</br>" } }
    /// The name of `<hr>`.
    public enum hr: HTMLTagName { @inlinable public static var openTag: StaticString { "<hr" }; @inlinable public static var closeTag: StaticString { "</hr>" } }
    /// The name of `<img>`.
    public enum img: HTMLTagName { @inlinable public static var openTag: StaticString { "<img" }; @inlinable public static var closeTag: StaticString { "</img>" } }
}

/// `<progress>`: how far a task has got.
public typealias progress<Content: HTML> = HTMLElement<Tag.progress, Content>
/// `<meter>`: a measurement within a known range.
public typealias meter<Content: HTML> = HTMLElement<Tag.meter, Content>
/// `<html>`: the document's root.
public typealias html<Content: HTML> = HTMLElement<Tag.html, Content>
/// `<head>`: the document's metadata.
public typealias head<Content: HTML> = HTMLElement<Tag.head, Content>
/// `<body>`: the document's content.
public typealias body<Content: HTML> = HTMLElement<Tag.body, Content>
/// `<title>`: the document's title.
public typealias title<Content: HTML> = HTMLElement<Tag.title, Content>
/// `<script>`: a script, linked with `.src` (content would be escaped as text).
public typealias script<Content: HTML> = HTMLElement<Tag.script, Content>
/// `<style>`: styles in the page; its content must be `RawHTML`, as text would be escaped.
public typealias style<Content: HTML> = HTMLElement<Tag.style, Content>
/// `<main>`: the page's main content.
public typealias main<Content: HTML> = HTMLElement<Tag.main, Content>
/// `<header>`: a banner or the introduction of a section.
public typealias header<Content: HTML> = HTMLElement<Tag.header, Content>
/// `<footer>`: a footer.
public typealias footer<Content: HTML> = HTMLElement<Tag.footer, Content>
/// `<nav>`: a group of navigation links.
public typealias nav<Content: HTML> = HTMLElement<Tag.nav, Content>
/// `<section>`: a group of content with a heading.
public typealias section<Content: HTML> = HTMLElement<Tag.section, Content>
/// `<article>`: a self-contained piece of content.
public typealias article<Content: HTML> = HTMLElement<Tag.article, Content>
/// `<aside>`: content beside the main flow.
public typealias aside<Content: HTML> = HTMLElement<Tag.aside, Content>
/// `<div>`: a generic block.
public typealias div<Content: HTML> = HTMLElement<Tag.div, Content>
/// `<span>`: a generic run of text.
public typealias span<Content: HTML> = HTMLElement<Tag.span, Content>
/// `<p>`: a paragraph.
public typealias p<Content: HTML> = HTMLElement<Tag.p, Content>
/// `<a>`: a link.
public typealias a<Content: HTML> = HTMLElement<Tag.a, Content>
/// `<h1>`: a heading, level 1.
public typealias h1<Content: HTML> = HTMLElement<Tag.h1, Content>
/// `<h2>`: a heading, level 2.
public typealias h2<Content: HTML> = HTMLElement<Tag.h2, Content>
/// `<h3>`: a heading, level 3.
public typealias h3<Content: HTML> = HTMLElement<Tag.h3, Content>
/// `<h4>`: a heading, level 4.
public typealias h4<Content: HTML> = HTMLElement<Tag.h4, Content>
/// `<ul>`: a list whose order does not matter.
public typealias ul<Content: HTML> = HTMLElement<Tag.ul, Content>
/// `<ol>`: a list in order.
public typealias ol<Content: HTML> = HTMLElement<Tag.ol, Content>
/// `<li>`: a list item.
public typealias li<Content: HTML> = HTMLElement<Tag.li, Content>
/// `<dl>`: a list of terms and their descriptions.
public typealias dl<Content: HTML> = HTMLElement<Tag.dl, Content>
/// `<dt>`: a term in a description list.
public typealias dt<Content: HTML> = HTMLElement<Tag.dt, Content>
/// `<dd>`: the description of a term.
public typealias dd<Content: HTML> = HTMLElement<Tag.dd, Content>
/// `<table>`: a table.
public typealias table<Content: HTML> = HTMLElement<Tag.table, Content>
/// `<caption>`: a table's caption.
public typealias caption<Content: HTML> = HTMLElement<Tag.caption, Content>
/// `<thead>`: a table's header rows.
public typealias thead<Content: HTML> = HTMLElement<Tag.thead, Content>
/// `<tbody>`: a table's body rows.
public typealias tbody<Content: HTML> = HTMLElement<Tag.tbody, Content>
/// `<tr>`: a table row.
public typealias tr<Content: HTML> = HTMLElement<Tag.tr, Content>
/// `<th>`: a header cell.
public typealias th<Content: HTML> = HTMLElement<Tag.th, Content>
/// `<td>`: a data cell.
public typealias td<Content: HTML> = HTMLElement<Tag.td, Content>
/// `<form>`: a form.
public typealias form<Content: HTML> = HTMLElement<Tag.form, Content>
/// `<fieldset>`: a group of form controls.
public typealias fieldset<Content: HTML> = HTMLElement<Tag.fieldset, Content>
/// `<legend>`: a fieldset's caption.
public typealias legend<Content: HTML> = HTMLElement<Tag.legend, Content>
/// `<label>`: a form control's label.
public typealias label<Content: HTML> = HTMLElement<Tag.label, Content>
/// `<button>`: a button.
public typealias button<Content: HTML> = HTMLElement<Tag.button, Content>
/// `<select>`: a choice among options.
public typealias select<Content: HTML> = HTMLElement<Tag.select, Content>
/// `<option>`: one choice of a select.
public typealias option<Content: HTML> = HTMLElement<Tag.option, Content>
/// `<strong>`: text of strong importance.
public typealias strong<Content: HTML> = HTMLElement<Tag.strong, Content>
/// `<code>`: a fragment of computer code, or text a person types exactly.
public typealias code<Content: HTML> = HTMLElement<Tag.code, Content>
/// `<em>`: stressed text.
public typealias em<Content: HTML> = HTMLElement<Tag.em, Content>
/// `<small>`: fine print.
public typealias small<Content: HTML> = HTMLElement<Tag.small, Content>
/// `<time>`: a date or time, machine-readable in its `datetime`.
public typealias time<Content: HTML> = HTMLElement<Tag.time, Content>
/// `<abbr>`: an abbreviation.
public typealias abbr<Content: HTML> = HTMLElement<Tag.abbr, Content>
/// `<figure>`: a figure, with an optional caption.
public typealias figure<Content: HTML> = HTMLElement<Tag.figure, Content>
/// `<figcaption>`: a figure's caption.
public typealias figcaption<Content: HTML> = HTMLElement<Tag.figcaption, Content>
/// `<noscript>`: shown when script is off.
public typealias noscript<Content: HTML> = HTMLElement<Tag.noscript, Content>
/// `<template>`: inert markup; with `shadowrootmode`, a declarative shadow root.
public typealias template<Content: HTML> = HTMLElement<Tag.template, Content>
/// `<slot>`: a place in a shadow tree that a light-DOM child fills.
public typealias slot<Content: HTML> = HTMLElement<Tag.slot, Content>
/// `<output>`: the result of a calculation.
public typealias output<Content: HTML> = HTMLElement<Tag.output, Content>
/// `<svg>`: an inline SVG image.
public typealias svg<Content: HTML> = HTMLElement<Tag.svg, Content>
/// `<polyline>`: SVG: connected straight lines.
public typealias polyline<Content: HTML> = HTMLElement<Tag.polyline, Content>
/// `<polygon>`: SVG: a closed shape of straight lines.
public typealias polygon<Content: HTML> = HTMLElement<Tag.polygon, Content>
/// `<circle>`: SVG: a circle.
public typealias circle<Content: HTML> = HTMLElement<Tag.circle, Content>
/// `<line>`: SVG: a straight line.
public typealias line<Content: HTML> = HTMLElement<Tag.line, Content>
/// `<path>`: SVG: a path.
public typealias path<Content: HTML> = HTMLElement<Tag.path, Content>
/// `<text>`: SVG: text.
public typealias text<Content: HTML> = HTMLElement<Tag.text, Content>
/// `<desc>`: SVG: a description, for assistive technology.
public typealias desc<Content: HTML> = HTMLElement<Tag.desc, Content>
/// `<g>`: SVG: a group.
public typealias g<Content: HTML> = HTMLElement<Tag.g, Content>
/// `<meta>`: metadata (void: no content, no end tag).
public typealias meta = HTMLVoidElement<Tag.meta>
/// `<link>`: a linked resource such as a stylesheet (void: no content, no end tag).
public typealias link = HTMLVoidElement<Tag.link>
/// `<input>`: a form control (void: no content, no end tag).
public typealias input = HTMLVoidElement<Tag.input>
/// `<br>`: a line break (void: no content, no end tag).
public typealias br = HTMLVoidElement<Tag.br>
/// `<hr>`: a thematic break (void: no content, no end tag).
public typealias hr = HTMLVoidElement<Tag.hr>
/// `<img>`: an image (void: no content, no end tag).
public typealias img = HTMLVoidElement<Tag.img>
