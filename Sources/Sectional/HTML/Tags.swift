// The element names, one type each, and the aliases pages are written with:
// `div(.class("card")) { … }` is `HTMLElement<Tag.div, …>`.

/// Element names.
public enum Tag {
    public enum meter: HTMLTagName { public static var openTag: StaticString { "<meter" }; public static var closeTag: StaticString { "</meter>" } }
    public enum progress: HTMLTagName { public static var openTag: StaticString { "<progress" }; public static var closeTag: StaticString { "</progress>" } }
    public enum html: HTMLTagName { public static var openTag: StaticString { "<html" }; public static var closeTag: StaticString { "</html>" } }
    public enum head: HTMLTagName { public static var openTag: StaticString { "<head" }; public static var closeTag: StaticString { "</head>" } }
    public enum body: HTMLTagName { public static var openTag: StaticString { "<body" }; public static var closeTag: StaticString { "</body>" } }
    public enum title: HTMLTagName { public static var openTag: StaticString { "<title" }; public static var closeTag: StaticString { "</title>" } }
    public enum script: HTMLTagName { public static var openTag: StaticString { "<script" }; public static var closeTag: StaticString { "</script>" } }
    public enum style: HTMLTagName { public static var openTag: StaticString { "<style" }; public static var closeTag: StaticString { "</style>" } }
    public enum main: HTMLTagName { public static var openTag: StaticString { "<main" }; public static var closeTag: StaticString { "</main>" } }
    public enum header: HTMLTagName { public static var openTag: StaticString { "<header" }; public static var closeTag: StaticString { "</header>" } }
    public enum footer: HTMLTagName { public static var openTag: StaticString { "<footer" }; public static var closeTag: StaticString { "</footer>" } }
    public enum nav: HTMLTagName { public static var openTag: StaticString { "<nav" }; public static var closeTag: StaticString { "</nav>" } }
    public enum section: HTMLTagName { public static var openTag: StaticString { "<section" }; public static var closeTag: StaticString { "</section>" } }
    public enum article: HTMLTagName { public static var openTag: StaticString { "<article" }; public static var closeTag: StaticString { "</article>" } }
    public enum aside: HTMLTagName { public static var openTag: StaticString { "<aside" }; public static var closeTag: StaticString { "</aside>" } }
    public enum div: HTMLTagName { public static var openTag: StaticString { "<div" }; public static var closeTag: StaticString { "</div>" } }
    public enum span: HTMLTagName { public static var openTag: StaticString { "<span" }; public static var closeTag: StaticString { "</span>" } }
    public enum p: HTMLTagName { public static var openTag: StaticString { "<p" }; public static var closeTag: StaticString { "</p>" } }
    public enum a: HTMLTagName { public static var openTag: StaticString { "<a" }; public static var closeTag: StaticString { "</a>" } }
    public enum h1: HTMLTagName { public static var openTag: StaticString { "<h1" }; public static var closeTag: StaticString { "</h1>" } }
    public enum h2: HTMLTagName { public static var openTag: StaticString { "<h2" }; public static var closeTag: StaticString { "</h2>" } }
    public enum h3: HTMLTagName { public static var openTag: StaticString { "<h3" }; public static var closeTag: StaticString { "</h3>" } }
    public enum h4: HTMLTagName { public static var openTag: StaticString { "<h4" }; public static var closeTag: StaticString { "</h4>" } }
    public enum ul: HTMLTagName { public static var openTag: StaticString { "<ul" }; public static var closeTag: StaticString { "</ul>" } }
    public enum ol: HTMLTagName { public static var openTag: StaticString { "<ol" }; public static var closeTag: StaticString { "</ol>" } }
    public enum li: HTMLTagName { public static var openTag: StaticString { "<li" }; public static var closeTag: StaticString { "</li>" } }
    public enum dl: HTMLTagName { public static var openTag: StaticString { "<dl" }; public static var closeTag: StaticString { "</dl>" } }
    public enum dt: HTMLTagName { public static var openTag: StaticString { "<dt" }; public static var closeTag: StaticString { "</dt>" } }
    public enum dd: HTMLTagName { public static var openTag: StaticString { "<dd" }; public static var closeTag: StaticString { "</dd>" } }
    public enum table: HTMLTagName { public static var openTag: StaticString { "<table" }; public static var closeTag: StaticString { "</table>" } }
    public enum caption: HTMLTagName { public static var openTag: StaticString { "<caption" }; public static var closeTag: StaticString { "</caption>" } }
    public enum thead: HTMLTagName { public static var openTag: StaticString { "<thead" }; public static var closeTag: StaticString { "</thead>" } }
    public enum tbody: HTMLTagName { public static var openTag: StaticString { "<tbody" }; public static var closeTag: StaticString { "</tbody>" } }
    public enum tr: HTMLTagName { public static var openTag: StaticString { "<tr" }; public static var closeTag: StaticString { "</tr>" } }
    public enum th: HTMLTagName { public static var openTag: StaticString { "<th" }; public static var closeTag: StaticString { "</th>" } }
    public enum td: HTMLTagName { public static var openTag: StaticString { "<td" }; public static var closeTag: StaticString { "</td>" } }
    public enum form: HTMLTagName { public static var openTag: StaticString { "<form" }; public static var closeTag: StaticString { "</form>" } }
    public enum fieldset: HTMLTagName { public static var openTag: StaticString { "<fieldset" }; public static var closeTag: StaticString { "</fieldset>" } }
    public enum legend: HTMLTagName { public static var openTag: StaticString { "<legend" }; public static var closeTag: StaticString { "</legend>" } }
    public enum label: HTMLTagName { public static var openTag: StaticString { "<label" }; public static var closeTag: StaticString { "</label>" } }
    public enum button: HTMLTagName { public static var openTag: StaticString { "<button" }; public static var closeTag: StaticString { "</button>" } }
    public enum select: HTMLTagName { public static var openTag: StaticString { "<select" }; public static var closeTag: StaticString { "</select>" } }
    public enum option: HTMLTagName { public static var openTag: StaticString { "<option" }; public static var closeTag: StaticString { "</option>" } }
    public enum strong: HTMLTagName { public static var openTag: StaticString { "<strong" }; public static var closeTag: StaticString { "</strong>" } }
    public enum em: HTMLTagName { public static var openTag: StaticString { "<em" }; public static var closeTag: StaticString { "</em>" } }
    public enum small: HTMLTagName { public static var openTag: StaticString { "<small" }; public static var closeTag: StaticString { "</small>" } }
    public enum time: HTMLTagName { public static var openTag: StaticString { "<time" }; public static var closeTag: StaticString { "</time>" } }
    public enum abbr: HTMLTagName { public static var openTag: StaticString { "<abbr" }; public static var closeTag: StaticString { "</abbr>" } }
    public enum figure: HTMLTagName { public static var openTag: StaticString { "<figure" }; public static var closeTag: StaticString { "</figure>" } }
    public enum figcaption: HTMLTagName { public static var openTag: StaticString { "<figcaption" }; public static var closeTag: StaticString { "</figcaption>" } }
    public enum noscript: HTMLTagName { public static var openTag: StaticString { "<noscript" }; public static var closeTag: StaticString { "</noscript>" } }
    public enum template: HTMLTagName { public static var openTag: StaticString { "<template" }; public static var closeTag: StaticString { "</template>" } }
    public enum slot: HTMLTagName { public static var openTag: StaticString { "<slot" }; public static var closeTag: StaticString { "</slot>" } }
    public enum output: HTMLTagName { public static var openTag: StaticString { "<output" }; public static var closeTag: StaticString { "</output>" } }
    public enum svg: HTMLTagName { public static var openTag: StaticString { "<svg" }; public static var closeTag: StaticString { "</svg>" } }
    public enum polyline: HTMLTagName { public static var openTag: StaticString { "<polyline" }; public static var closeTag: StaticString { "</polyline>" } }
    public enum polygon: HTMLTagName { public static var openTag: StaticString { "<polygon" }; public static var closeTag: StaticString { "</polygon>" } }
    public enum circle: HTMLTagName { public static var openTag: StaticString { "<circle" }; public static var closeTag: StaticString { "</circle>" } }
    public enum line: HTMLTagName { public static var openTag: StaticString { "<line" }; public static var closeTag: StaticString { "</line>" } }
    public enum path: HTMLTagName { public static var openTag: StaticString { "<path" }; public static var closeTag: StaticString { "</path>" } }
    public enum text: HTMLTagName { public static var openTag: StaticString { "<text" }; public static var closeTag: StaticString { "</text>" } }
    public enum desc: HTMLTagName { public static var openTag: StaticString { "<desc" }; public static var closeTag: StaticString { "</desc>" } }
    public enum g: HTMLTagName { public static var openTag: StaticString { "<g" }; public static var closeTag: StaticString { "</g>" } }
    public enum meta: HTMLTagName { public static var openTag: StaticString { "<meta" }; public static var closeTag: StaticString { "</meta>" } }
    public enum link: HTMLTagName { public static var openTag: StaticString { "<link" }; public static var closeTag: StaticString { "</link>" } }
    public enum input: HTMLTagName { public static var openTag: StaticString { "<input" }; public static var closeTag: StaticString { "</input>" } }
    public enum br: HTMLTagName { public static var openTag: StaticString { "<br" }; public static var closeTag: StaticString { "</br>" } }
    public enum hr: HTMLTagName { public static var openTag: StaticString { "<hr" }; public static var closeTag: StaticString { "</hr>" } }
    public enum img: HTMLTagName { public static var openTag: StaticString { "<img" }; public static var closeTag: StaticString { "</img>" } }
}

public typealias progress<Content: HTML> = HTMLElement<Tag.progress, Content>
public typealias meter<Content: HTML> = HTMLElement<Tag.meter, Content>
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
