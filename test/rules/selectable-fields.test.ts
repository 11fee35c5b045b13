import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('selectable-fields');
