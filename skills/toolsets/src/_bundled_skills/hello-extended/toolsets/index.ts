// Sample toolset for the hello-extended skill. SkillStudio only checks that this
// file exists and exports HelloToolset; it never imports or runs it.
import { z } from "zod";
import { Tool } from "@agent/tools";

export const helloTool = Tool.define("hello", {
  description: "Greet a person by name",
  parameters: z.object({ name: z.string(), lang: z.string().optional() }),
  execute: async (args) => ({
    title: "Greeted",
    metadata: {},
    output: args.lang === "fr" ? `Bonjour, ${args.name}!` : `Hello, ${args.name}!`,
  }),
});

export const HelloToolset = [helloTool];
