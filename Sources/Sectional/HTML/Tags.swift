// The element names, one type each, and the aliases pages are written with:
// `div(.class("card")) { … }` is `HTMLElement<Tag.div, …>`.

/// Element names.
public enum Tag {
    public enum html: HTMLTagName { public static var name: StaticString { "html" } }
    public enum head: HTMLTagName { public static var name: StaticString { "head" } }
    public enum body: HTMLTagName { public static var name: StaticString { "body" } }
    public enum title: HTMLTagName { public static var name: StaticString { "title" } }
    public enum script: HTMLTagName { public static var name: StaticString { "script" } }
    public enum style: HTMLTagName { public static var name: StaticString { "style" } }
    public enum main: HTMLTagName { public static var name: StaticString { "main" } }
    public enum header: HTMLTagName { public static var name: StaticString { "header" } }
    public enum footer: HTMLTagName { public static var name: StaticString { "footer" } }
    public enum nav: HTMLTagName { public static var name: StaticString { "nav" } }
    public enum section: HTMLTagName { public static var name: StaticString { "section" } }
    public enum article: HTMLTagName { public static var name: StaticString { "article" } }
    public enum aside: HTMLTagName { public static var name: StaticString { "aside" } }
    public enum div: HTMLTagName { public static var name: StaticString { "div" } }
    public enum span: HTMLTagName { public static var name: StaticString { "span" } }
    public enum p: HTMLTagName { public static var name: StaticString { "p" } }
    public enum a: HTMLTagName { public static var name: StaticString { "a" } }
    public enum h1: HTMLTagName { public static var name: StaticString { "h1" } }
    public enum h2: HTMLTagName { public static var name: StaticString { "h2" } }
    public enum h3: HTMLTagName { public static var name: StaticString { "h3" } }
    public enum h4: HTMLTagName { public static var name: StaticString { "h4" } }
    public enum ul: HTMLTagName { public static var name: StaticString { "ul" } }
    public enum ol: HTMLTagName { public static var name: StaticString { "ol" } }
    public enum li: HTMLTagName { public static var name: StaticString { "li" } }
    public enum dl: HTMLTagName { public static var name: StaticString { "dl" } }
    public enum dt: HTMLTagName { public static var name: StaticString { "dt" } }
    public enum dd: HTMLTagName { public static var name: StaticString { "dd" } }
    public enum table: HTMLTagName { public static var name: StaticString { "table" } }
    public enum caption: HTMLTagName { public static var name: StaticString { "caption" } }
    public enum thead: HTMLTagName { public static var name: StaticString { "thead" } }
    public enum tbody: HTMLTagName { public static var name: StaticString { "tbody" } }
    public enum tr: HTMLTagName { public static var name: StaticString { "tr" } }
    public enum th: HTMLTagName { public static var name: StaticString { "th" } }
    public enum td: HTMLTagName { public static var name: StaticString { "td" } }
    public enum form: HTMLTagName { public static var name: StaticString { "form" } }
    public enum fieldset: HTMLTagName { public static var name: StaticString { "fieldset" } }
    public enum legend: HTMLTagName { public static var name: StaticString { "legend" } }
    public enum label: HTMLTagName { public static var name: StaticString { "label" } }
    public enum button: HTMLTagName { public static var name: StaticString { "button" } }
    public enum select: HTMLTagName { public static var name: StaticString { "select" } }
    public enum option: HTMLTagName { public static var name: StaticString { "option" } }
    public enum strong: HTMLTagName { public static var name: StaticString { "strong" } }
    public enum em: HTMLTagName { public static var name: StaticString { "em" } }
    public enum small: HTMLTagName { public static var name: StaticString { "small" } }
    public enum time: HTMLTagName { public static var name: StaticString { "time" } }
    public enum abbr: HTMLTagName { public static var name: StaticString { "abbr" } }
    public enum figure: HTMLTagName { public static var name: StaticString { "figure" } }
    public enum figcaption: HTMLTagName { public static var name: StaticString { "figcaption" } }
    public enum noscript: HTMLTagName { public static var name: StaticString { "noscript" } }
    public enum template: HTMLTagName { public static var name: StaticString { "template" } }
    public enum slot: HTMLTagName { public static var name: StaticString { "slot" } }
    public enum output: HTMLTagName { public static var name: StaticString { "output" } }
    public enum svg: HTMLTagName { public static var name: StaticString { "svg" } }
    public enum polyline: HTMLTagName { public static var name: StaticString { "polyline" } }
    public enum polygon: HTMLTagName { public static var name: StaticString { "polygon" } }
    public enum circle: HTMLTagName { public static var name: StaticString { "circle" } }
    public enum line: HTMLTagName { public static var name: StaticString { "line" } }
    public enum path: HTMLTagName { public static var name: StaticString { "path" } }
    public enum text: HTMLTagName { public static var name: StaticString { "text" } }
    public enum desc: HTMLTagName { public static var name: StaticString { "desc" } }
    public enum g: HTMLTagName { public static var name: StaticString { "g" } }
    public enum meta: HTMLTagName { public static var name: StaticString { "meta" } }
    public enum link: HTMLTagName { public static var name: StaticString { "link" } }
    public enum input: HTMLTagName { public static var name: StaticString { "input" } }
    public enum br: HTMLTagName { public static var name: StaticString { "br" } }
    public enum hr: HTMLTagName { public static var name: StaticString { "hr" } }
    public enum img: HTMLTagName { public static var name: StaticString { "img" } }
}

public typealias html<Content: HTML> = HTMLElement<Tag.html, Content>
public typealias head<Content: HTML> = HTMLElement<Tag.head, Content>
public typealias body<Content: HTML> = HTMLElement<Tag.body, Content>
public typealias title<Content: HTML> = HTMLElement<Tag.title, Content>
public typealias script<Content: HTML> = HTMLElement<Tag.script, Content>
public typealias style<Content: HTML> = HTMLElement<Tag.style, Content>
public typealias main<Content: HTML> = HTMLElement<Tag.main, Content>
public typealias header<Content: HTML> = HTMLElement<Tag.header, Content>
public typealias footer<Content: HTML> = HTMLElement<Tag.footer, Content>
public typealias nav<Content: HTML> = HTMLElement<Tag.nav, Content>
public typealias section<Content: HTML> = HTMLElement<Tag.section, Content>
public typealias article<Content: HTML> = HTMLElement<Tag.article, Content>
public typealias aside<Content: HTML> = HTMLElement<Tag.aside, Content>
public typealias div<Content: HTML> = HTMLElement<Tag.div, Content>
public typealias span<Content: HTML> = HTMLElement<Tag.span, Content>
public typealias p<Content: HTML> = HTMLElement<Tag.p, Content>
public typealias a<Content: HTML> = HTMLElement<Tag.a, Content>
public typealias h1<Content: HTML> = HTMLElement<Tag.h1, Content>
public typealias h2<Content: HTML> = HTMLElement<Tag.h2, Content>
public typealias h3<Content: HTML> = HTMLElement<Tag.h3, Content>
public typealias h4<Content: HTML> = HTMLElement<Tag.h4, Content>
public typealias ul<Content: HTML> = HTMLElement<Tag.ul, Content>
public typealias ol<Content: HTML> = HTMLElement<Tag.ol, Content>
public typealias li<Content: HTML> = HTMLElement<Tag.li, Content>
public typealias dl<Content: HTML> = HTMLElement<Tag.dl, Content>
public typealias dt<Content: HTML> = HTMLElement<Tag.dt, Content>
public typealias dd<Content: HTML> = HTMLElement<Tag.dd, Content>
public typealias table<Content: HTML> = HTMLElement<Tag.table, Content>
public typealias caption<Content: HTML> = HTMLElement<Tag.caption, Content>
public typealias thead<Content: HTML> = HTMLElement<Tag.thead, Content>
public typealias tbody<Content: HTML> = HTMLElement<Tag.tbody, Content>
public typealias tr<Content: HTML> = HTMLElement<Tag.tr, Content>
public typealias th<Content: HTML> = HTMLElement<Tag.th, Content>
public typealias td<Content: HTML> = HTMLElement<Tag.td, Content>
public typealias form<Content: HTML> = HTMLElement<Tag.form, Content>
public typealias fieldset<Content: HTML> = HTMLElement<Tag.fieldset, Content>
public typealias legend<Content: HTML> = HTMLElement<Tag.legend, Content>
public typealias label<Content: HTML> = HTMLElement<Tag.label, Content>
public typealias button<Content: HTML> = HTMLElement<Tag.button, Content>
public typealias select<Content: HTML> = HTMLElement<Tag.select, Content>
public typealias option<Content: HTML> = HTMLElement<Tag.option, Content>
public typealias strong<Content: HTML> = HTMLElement<Tag.strong, Content>
public typealias em<Content: HTML> = HTMLElement<Tag.em, Content>
public typealias small<Content: HTML> = HTMLElement<Tag.small, Content>
public typealias time<Content: HTML> = HTMLElement<Tag.time, Content>
public typealias abbr<Content: HTML> = HTMLElement<Tag.abbr, Content>
public typealias figure<Content: HTML> = HTMLElement<Tag.figure, Content>
public typealias figcaption<Content: HTML> = HTMLElement<Tag.figcaption, Content>
public typealias noscript<Content: HTML> = HTMLElement<Tag.noscript, Content>
public typealias template<Content: HTML> = HTMLElement<Tag.template, Content>
public typealias slot<Content: HTML> = HTMLElement<Tag.slot, Content>
public typealias output<Content: HTML> = HTMLElement<Tag.output, Content>
public typealias svg<Content: HTML> = HTMLElement<Tag.svg, Content>
public typealias polyline<Content: HTML> = HTMLElement<Tag.polyline, Content>
public typealias polygon<Content: HTML> = HTMLElement<Tag.polygon, Content>
public typealias circle<Content: HTML> = HTMLElement<Tag.circle, Content>
public typealias line<Content: HTML> = HTMLElement<Tag.line, Content>
public typealias path<Content: HTML> = HTMLElement<Tag.path, Content>
public typealias text<Content: HTML> = HTMLElement<Tag.text, Content>
public typealias desc<Content: HTML> = HTMLElement<Tag.desc, Content>
public typealias g<Content: HTML> = HTMLElement<Tag.g, Content>
public typealias meta = HTMLVoidElement<Tag.meta>
public typealias link = HTMLVoidElement<Tag.link>
public typealias input = HTMLVoidElement<Tag.input>
public typealias br = HTMLVoidElement<Tag.br>
public typealias hr = HTMLVoidElement<Tag.hr>
public typealias img = HTMLVoidElement<Tag.img>
